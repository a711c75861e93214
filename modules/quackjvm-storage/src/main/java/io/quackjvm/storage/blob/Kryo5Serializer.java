package io.quackjvm.storage.blob;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.googlecode.cqengine.persistence.support.serialization.PojoSerializer;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * Serialises objects with Kryo 5: records, ordinary classes (with or without a no-argument constructor), the JDK
 * collections and the common JDK value types ({@link JdkSerializers}), with no JVM flags. One Kryo per thread,
 * because a Kryo instance is not thread-safe.
 */
final class Kryo5Serializer<O> implements PojoSerializer<O> {

    /** The first byte of a row: the object is exactly of the collection's class, or its class is written too. */
    private static final byte EXACT = 0;
    private static final byte WITH_CLASS = 1;

    private final Class<O> objectType;
    private final boolean polymorphic;
    private final ThreadLocal<Kryo> kryo;
    private final ThreadLocal<Output> output = ThreadLocal.withInitial(() -> new Output(256, -1));

    Kryo5Serializer(Class<O> objectType, boolean polymorphic) {
        this.objectType = objectType;
        this.polymorphic = polymorphic;
        this.kryo = ThreadLocal.withInitial(Kryo5Serializer::newKryo);
    }

    private static Kryo newKryo() {
        Kryo kryo = new Kryo(new JdkSerializers.ReadIdResolver());
        kryo.setRegistrationRequired(false);
        kryo.setReferences(true);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        kryo.setClassLoader(Kryo5Serializer.class.getClassLoader());
        // JDK value types and collection views that Kryo would otherwise rebuild through reflection into
        // java.base (refused on Java 17 without --add-opens), or rebuild inexactly.
        JdkSerializers.addTo(kryo);
        return kryo;
    }

    @Override
    public byte[] serialize(O object) {
        Kryo k = kryo.get();
        Output out = output.get();
        out.reset();
        if (!polymorphic && object.getClass() == objectType) {
            out.writeByte(EXACT);
            k.writeObject(out, object);
        } else {
            out.writeByte(WITH_CLASS);
            k.writeClassAndObject(out, object);
        }
        return out.toBytes();
    }

    @Override
    public O deserialize(byte[] bytes) {
        Kryo k = kryo.get();
        Input in = new Input(bytes);
        byte kind = in.readByte();
        Object o = kind == EXACT ? k.readObject(in, objectType) : k.readClassAndObject(in);
        return objectType.cast(o);
    }
}
