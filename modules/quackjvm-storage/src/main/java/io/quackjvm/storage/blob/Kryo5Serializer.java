package io.quackjvm.storage.blob;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.googlecode.cqengine.persistence.support.serialization.PojoSerializer;
import org.objenesis.strategy.StdInstantiatorStrategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Serialises objects with Kryo 5: records, ordinary classes (with or without a no-argument constructor) and the
 * JDK collections, with no JVM flags. One Kryo per thread, because a Kryo instance is not thread-safe.
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
        Kryo kryo = new Kryo();
        kryo.setRegistrationRequired(false);
        kryo.setReferences(true);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        kryo.setClassLoader(Kryo5Serializer.class.getClassLoader());
        // JDK collection views that Kryo would otherwise rebuild through reflection into java.util (refused on
        // Java 17 without --add-opens) are written as plain lists and read back as the same kind of view.
        kryo.addDefaultSerializer(Arrays.asList().getClass(), new ViewSerializer(l -> Arrays.asList(l.toArray())));
        kryo.addDefaultSerializer(Collections.unmodifiableList(new ArrayList<>()).getClass(),
                new ViewSerializer(Collections::unmodifiableList));
        kryo.addDefaultSerializer(Collections.unmodifiableList(new java.util.LinkedList<>()).getClass(),
                new ViewSerializer(Collections::unmodifiableList));
        kryo.addDefaultSerializer(Collections.unmodifiableCollection(new ArrayList<>()).getClass(),
                new ViewSerializer(Collections::unmodifiableCollection));
        kryo.addDefaultSerializer(Collections.unmodifiableSet(new java.util.HashSet<>()).getClass(),
                new ViewSerializer(l -> Collections.unmodifiableSet(new java.util.LinkedHashSet<>(l))));
        kryo.addDefaultSerializer(List.of().getClass(), new ViewSerializer(List::copyOf));
        kryo.addDefaultSerializer(List.of(1).getClass(), new ViewSerializer(List::copyOf));
        kryo.addDefaultSerializer(List.of(1, 2, 3).getClass(), new ViewSerializer(List::copyOf));
        kryo.addDefaultSerializer(java.util.Set.of().getClass(), new ViewSerializer(java.util.Set::copyOf));
        kryo.addDefaultSerializer(java.util.Set.of(1).getClass(), new ViewSerializer(java.util.Set::copyOf));
        kryo.addDefaultSerializer(java.util.Set.of(1, 2, 3).getClass(), new ViewSerializer(java.util.Set::copyOf));
        kryo.addDefaultSerializer(Collections.emptyList().getClass(), new ViewSerializer(l -> Collections.emptyList()));
        kryo.addDefaultSerializer(Collections.emptySet().getClass(), new ViewSerializer(l -> Collections.emptySet()));
        kryo.addDefaultSerializer(Collections.singletonList(1).getClass(),
                new ViewSerializer(l -> Collections.singletonList(l.get(0))));
        kryo.addDefaultSerializer(Collections.singleton(1).getClass(),
                new ViewSerializer(l -> Collections.singleton(l.get(0))));
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

    /** Writes any collection as its elements; reads them back into a list and rebuilds the view from it. */
    private static final class ViewSerializer extends com.esotericsoftware.kryo.Serializer<Collection<?>> {
        private final java.util.function.Function<List<Object>, Collection<?>> rebuild;

        ViewSerializer(java.util.function.Function<List<Object>, Collection<?>> rebuild) {
            this.rebuild = rebuild;
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output output, Collection<?> collection) {
            output.writeVarInt(collection.size(), true);
            for (Object element : collection) {
                kryo.writeClassAndObject(output, element);
            }
        }

        @Override
        public Collection<?> read(Kryo kryo, Input input, Class<? extends Collection<?>> type) {
            int size = input.readVarInt(true);
            List<Object> elements = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                elements.add(kryo.readClassAndObject(input));
            }
            return rebuild.apply(elements);
        }
    }

}
