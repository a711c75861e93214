package io.quackjvm.storage.blob;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.googlecode.cqengine.persistence.support.serialization.PojoSerializer;
import io.quackjvm.api.spi.AllowedClasses;
import org.objenesis.strategy.StdInstantiatorStrategy;

import java.util.Map;

/**
 * Serialises objects with Kryo 5: records, ordinary classes (with or without a no-argument constructor), the JDK
 * collections and the common JDK value types ({@link JdkSerializers}), with no JVM flags. One Kryo per thread,
 * because a Kryo instance is not thread-safe.
 *
 * <p>Reads build only classes on the collection's {@link ClassAllowList}. Each row carries the version of the
 * classes' shapes it was written with ({@link ClassShapes}): version 0 rows have the format of the first release
 * (a first byte of 0 or 1), later versions a first byte of 2 or 3 and the version, so rows written before a class
 * gained or lost a field stay readable ({@link Evolution}).
 */
final class Kryo5Serializer<O> implements PojoSerializer<O> {

    /** The first byte of a row: the object is exactly of the collection's class, or its class is written too. */
    private static final byte EXACT = 0;
    private static final byte WITH_CLASS = 1;
    /** The same, followed by the version of the shapes the row was written with (above 0). */
    private static final byte EXACT_VERSIONED = 2;
    private static final byte WITH_CLASS_VERSIONED = 3;

    private final Class<O> objectType;
    private final boolean polymorphic;
    private final ClassAllowList allowList;
    private final ClassLoader loader;
    private volatile Evolution evolution = Evolution.NONE;
    /** The record of the shapes {@link #evolution} was reconciled from, or null before the collection is opened. */
    private volatile String encoding;
    /**
     * For rows of another collection (read from Parquet files): what a refusal of a version their record lacks says
     * of that record; null for this collection's own rows.
     */
    private final String foreign;
    /** Whether rows are read from files that carry no record, as written with the classes as they are now. */
    private final boolean recordless;
    private final ThreadLocal<Session> sessions = new ThreadLocal<>();

    /** One thread's Kryo, for one {@link Evolution}. */
    private static final class Session {
        final Evolution evolution;
        final Kryo kryo;
        final Output output = new Output(256, -1);
        final EvolvingSerializers.RowVersion row = new EvolvingSerializers.RowVersion();

        Session(Evolution evolution, ClassAllowList allowList, ClassLoader loader) {
            this.evolution = evolution;
            this.kryo = newKryo(allowList, loader);
            if (evolution.changes()) {
                kryo.addDefaultSerializer(Object.class, evolution.serializers(row));
            }
        }
    }

    Kryo5Serializer(Class<O> objectType, boolean polymorphic, AllowedClasses allowed) {
        this.objectType = objectType;
        this.polymorphic = polymorphic;
        this.allowList = ClassAllowList.of(objectType, allowed);
        // Rows name classes of the application, which may live in a class loader of their own (a plugin's, say).
        this.loader = objectType.getClassLoader() != null ? objectType.getClassLoader()
                : Kryo5Serializer.class.getClassLoader();
        this.foreign = null;
        this.recordless = false;
    }

    /** A reader of rows written under another record of the shapes, for the same classes. */
    private Kryo5Serializer(Kryo5Serializer<O> of, Evolution evolution, String foreign, boolean recordless) {
        this.objectType = of.objectType;
        this.polymorphic = of.polymorphic;
        this.allowList = of.allowList;
        this.loader = of.loader;
        this.evolution = evolution;
        this.encoding = of.encoding;
        this.foreign = foreign;
        this.recordless = recordless;
    }

    private static Kryo newKryo(ClassAllowList allowList, ClassLoader loader) {
        Kryo kryo = new Kryo(new AllowListResolver(allowList), new JdkSerializers.ReadIdResolver());
        kryo.setRegistrationRequired(false);
        kryo.setReferences(true);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        kryo.setClassLoader(loader);
        // JDK value types and collection views that Kryo would otherwise rebuild through reflection into
        // java.base (refused on Java 17 without --add-opens), or rebuild inexactly.
        JdkSerializers.addTo(kryo);
        return kryo;
    }

    private Session session() {
        Session s = sessions.get();
        Evolution e = evolution;
        if (s == null || s.evolution != e) {
            s = new Session(e, allowList, loader);
            sessions.set(s);
        }
        return s;
    }

    /**
     * Checks the shapes recorded in the file against the classes now, and returns the record to keep.
     *
     * @param stored the record kept in the file, or null for a new collection or a file of the first release,
     *               whose rows were written with the classes as they are now (they could not be read otherwise)
     * @throws IllegalStateException for a change of the classes that stored rows cannot survive
     */
    String reconcileEncoding(String stored) {
        Map<String, ClassShapes.Shape> current = currentShapes();
        String record;
        if (stored == null) {
            evolution = Evolution.NONE;
            record = new ClassShapes(java.util.List.of(current)).format();
        } else {
            Evolution.Reconciled r = Evolution.reconcile(ClassShapes.parse(stored), current, allowList,
                    allowList.userClasses());
            evolution = r.evolution();
            record = r.shapes().format();
        }
        encoding = record;
        return record;
    }

    /** The record of the shapes rows are read and written with, or null before the collection is opened. */
    String encoding() {
        return encoding;
    }

    /**
     * A serializer that reads rows written under {@code record} (another collection's, carried by Parquet files)
     * as the classes are now. Only for reading: its versions are the record's, not this collection's.
     *
     * @param record the record the files carry, or null when they carry none: their rows are then read as
     *               written with the classes as they are now, and a row that carries a version is refused
     * @throws IllegalStateException for a change of the classes since the record that rows cannot survive
     */
    Kryo5Serializer<O> reading(String record) {
        if (record == null) {
            return new Kryo5Serializer<>(this, Evolution.NONE, "the Parquet files carry no record of them (an "
                    + "earlier release exported them); export the collection again with this release", true);
        }
        Evolution e = Evolution.reconcile(ClassShapes.parse(record), currentShapes(), allowList,
                allowList.userClasses()).evolution();
        return new Kryo5Serializer<>(this, e, "the Parquet files record " + e.versions
                + "; the files were changed after the export", false);
    }

    private Map<String, ClassShapes.Shape> currentShapes() {
        return ClassShapes.describe(newKryo(allowList, loader), allowList.userClasses());
    }

    @Override
    public byte[] serialize(O object) {
        Session s = session();
        Output out = s.output;
        out.reset();
        int version = s.evolution.writeVersion;
        boolean exact = !polymorphic && object.getClass() == objectType;
        if (version == 0) {
            out.writeByte(exact ? EXACT : WITH_CLASS);
        } else {
            out.writeByte(exact ? EXACT_VERSIONED : WITH_CLASS_VERSIONED);
            out.writeVarInt(version, true);
        }
        if (exact) {
            s.kryo.writeObject(out, object);
        } else {
            s.kryo.writeClassAndObject(out, object);
        }
        return out.toBytes();
    }

    @Override
    public O deserialize(byte[] bytes) {
        Session s = session();
        Input in = new Input(bytes);
        byte kind = in.readByte();
        int version = 0;
        if (kind == EXACT_VERSIONED || kind == WITH_CLASS_VERSIONED) {
            version = in.readVarInt(true);
            if (version <= 0 || version >= s.evolution.versions) {
                throw new IllegalStateException("the row was written with version " + version + " of the classes' "
                        + "shapes, and " + (foreign != null ? foreign : "the file records " + s.evolution.versions
                        + "; the file was changed outside quackjvm"));
            }
        } else if (kind != EXACT && kind != WITH_CLASS) {
            throw new IllegalStateException("the row starts with byte " + kind + ", which no quackjvm release wrote");
        }
        s.row.version = version;
        try {
            Object o = kind == EXACT || kind == EXACT_VERSIONED ? s.kryo.readObject(in, objectType)
                    : s.kryo.readClassAndObject(in);
            return objectType.cast(o);
        } catch (RuntimeException e) {
            if (!recordless || ClassAllowList.NotAllowedException.among(e) != null) {
                throw e;
            }
            // without a record, a row of an earlier shape is read as the class is now, and fails
            throw new IllegalStateException(e.getMessage() + " (the row may have been written with an earlier shape "
                    + "of the classes: " + foreign + ")", e);
        }
    }

    /**
     * Kryo's class resolver, refusing by name every class outside the allow-list: on read before the class is
     * loaded, on write so that nothing is stored that could not be read back.
     */
    private static final class AllowListResolver extends DefaultClassResolver {
        private final ClassAllowList allowList;

        AllowListResolver(ClassAllowList allowList) {
            this.allowList = allowList;
        }

        @Override
        protected Class getTypeByName(String className) {
            Class<?> known = super.getTypeByName(className);
            if (known == null && !allowList.allows(className)) {
                throw new ClassAllowList.NotAllowedException(className);
            }
            return known;
        }

        @Override
        protected void writeName(Output output, Class type, Registration registration) {
            if (!allowList.allows(type.getName())) {
                throw new ClassAllowList.NotAllowedException(type);
            }
            super.writeName(output, type, registration);
        }
    }
}
