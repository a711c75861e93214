package io.quackjvm.storage.blob;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.serializers.FieldSerializer;
import com.esotericsoftware.kryo.serializers.RecordSerializer;
import com.esotericsoftware.kryo.util.Generics.GenericType;
import io.quackjvm.storage.blob.Evolution.Step;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;

/**
 * Kryo serializers for a class whose shape changed since some rows were written. They write exactly what Kryo's own
 * {@link FieldSerializer} and {@link RecordSerializer} write, and read a row of the current version the same way;
 * a row of an earlier version is read field by field as that version wrote it, keeping the fields the class still
 * has, reading past the removed ones and leaving the added ones at their defaults (a field initialiser runs when
 * the class has a no-argument constructor; a record's added component is zero, false or null).
 */
final class EvolvingSerializers {

    private EvolvingSerializers() {
    }

    /** The version of the row being read, set before each row by the layout: one per Kryo, so per thread. */
    static final class RowVersion {
        int version;
    }

    /** An ordinary class, read field by field. */
    static final class Fields<T> extends FieldSerializer<T> {
        private final Evolution evolution;
        private final RowVersion row;
        /** Per version, the class's own field for each kept step (null for a removed one); filled on first use. */
        private final CachedField[][] kept;

        Fields(Kryo kryo, Class<T> type, Evolution evolution, RowVersion row) {
            super(kryo, type);
            this.evolution = evolution;
            this.row = row;
            this.kept = new CachedField[evolution.versions][];
        }

        @Override
        public T read(Kryo kryo, Input input, Class<? extends T> type) {
            Step[] steps = evolution.plan(type, row.version);
            if (steps == null) {
                return super.read(kryo, input, type);
            }
            CachedField[] fields = fieldsOf(steps, row.version);
            int pop = pushTypeVariables();
            T object = create(kryo, input, type);
            kryo.reference(object);
            for (int i = 0; i < steps.length; i++) {
                if (fields[i] != null) {
                    fields[i].read(input, object);
                } else {
                    skip(kryo, input, steps[i]);
                }
            }
            popTypeVariables(pop);
            return object;
        }

        private CachedField[] fieldsOf(Step[] steps, int version) {
            CachedField[] fields = kept[version];
            if (fields == null) {
                fields = new CachedField[steps.length];
                for (int i = 0; i < steps.length; i++) {
                    fields[i] = steps[i].kept() ? getField(steps[i].name()) : null;
                }
                kept[version] = fields;
            }
            return fields;
        }

        /** Reads past one removed field's value as Kryo's field serializer wrote it. */
        private static void skip(Kryo kryo, Input input, Step step) {
            if (step.primitive()) {
                Class<?> p = step.erasure();
                if (p == int.class) {
                    input.readVarInt(false);
                } else if (p == long.class) {
                    input.readVarLong(false);
                } else if (p == float.class) {
                    input.readFloat();
                } else if (p == double.class) {
                    input.readDouble();
                } else if (p == boolean.class) {
                    input.readBoolean();
                } else if (p == byte.class) {
                    input.readByte();
                } else if (p == char.class) {
                    input.readChar();
                } else {
                    input.readShort();
                }
                return;
            }
            GenericType generic = new GenericType(Object.class, Object.class, step.type());
            if (step.erasure() != null) {
                kryo.getGenerics().pushGenericType(generic);
                kryo.readObjectOrNull(input, step.erasure());
            } else {
                Registration registration = kryo.readClass(input);
                if (registration == null) {
                    return;
                }
                kryo.getGenerics().pushGenericType(generic);
                kryo.readObject(input, registration.getType());
            }
            kryo.getGenerics().popGenericType();
        }
    }

    /** A record, read component by component and built through its canonical constructor. */
    static final class Records<T> extends RecordSerializer<T> {
        private final Evolution evolution;
        private final RowVersion row;
        private final Constructor<T> constructor;
        private final Object[] defaults;

        @SuppressWarnings("unchecked")
        Records(Class<T> type, Evolution evolution, RowVersion row) {
            super(type);
            this.evolution = evolution;
            this.row = row;
            try {
                this.constructor = (Constructor<T>) Evolution.canonicalConstructor(type);
                constructor.setAccessible(true); // checked when the collection was opened
            } catch (NoSuchMethodException e) {
                throw new KryoException("record " + type.getName() + " has no canonical constructor", e);
            }
            RecordComponent[] components = type.getRecordComponents();
            this.defaults = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                Class<?> c = components[i].getType();
                defaults[i] = c.isPrimitive() ? Array.get(Array.newInstance(c, 1), 0) : null;
            }
        }

        @Override
        public T read(Kryo kryo, Input input, Class<? extends T> type) {
            Step[] steps = evolution.plan(type, row.version);
            if (steps == null) {
                return super.read(kryo, input, type);
            }
            Object[] args = defaults.clone();
            for (Step step : steps) {
                Object value = step.primitive() ? kryo.readObject(input, step.erasure())
                        : step.fixed() ? kryo.readObjectOrNull(input, step.erasure())
                        : kryo.readClassAndObject(input);
                if (step.kept()) {
                    args[step.index()] = value;
                }
            }
            try {
                return constructor.newInstance(args);
            } catch (ReflectiveOperationException e) {
                throw new KryoException("cannot build a " + type.getName() + " from a row stored before it changed: "
                        + "its canonical constructor refused the stored values and the defaults of its new "
                        + "components (" + e.getCause() + ")", e);
            }
        }
    }
}
