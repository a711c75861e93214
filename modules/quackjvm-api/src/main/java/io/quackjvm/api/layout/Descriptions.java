package io.quackjvm.api.layout;

import io.quackjvm.api.spi.ColumnarDescription;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Builds the {@link FieldDescription} of a class: from a record's components, from every field of an ordinary
 * class, or from explicit getters and a factory. Every reflective member is made accessible here, once, and a
 * missing {@code opens} fails here with the directive to add.
 */
public final class Descriptions {

    private Descriptions() {
    }

    /**
     * A record's components, in declaration order, rebuilt through the canonical constructor.
     *
     * @throws IllegalArgumentException when {@code recordType} is not a record, or its package is not open to
     *                                  {@code io.quackjvm.api}
     */
    public static <O> FieldDescription<O> ofRecord(Class<O> recordType) {
        Objects.requireNonNull(recordType, "recordType");
        if (!recordType.isRecord()) {
            throw new IllegalArgumentException(recordType.getName() + " is not a record; use "
                    + "ColumnarLayout.reflective(" + recordType.getSimpleName() + ".class) for an ordinary class");
        }
        RecordComponent[] components = recordType.getRecordComponents();
        List<ColumnarDescription.Field<O>> fields = new ArrayList<>();
        Class<?>[] parameterTypes = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent rc = components[i];
            Method accessor = rc.getAccessor();
            open(recordType, accessor);
            parameterTypes[i] = rc.getType();
            fields.add(field(rc.getName(), rc.getGenericType(), o -> invoke(accessor, o)));
        }
        Constructor<O> canonical;
        try {
            canonical = recordType.getDeclaredConstructor(parameterTypes);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("Record " + recordType.getName() + " has no canonical constructor", e);
        }
        open(recordType, canonical);
        return new FieldDescription<>(recordType, "RECORD", fields, values -> construct(canonical, values), null);
    }

    /**
     * Every instance field of {@code type} and of its superclasses (superclass fields first), except static,
     * {@code transient} and synthetic ones. Objects are built with the no-argument constructor when there is one
     * (of any visibility) and then filled; without one, the layout provider allocates them and calls
     * {@link FieldDescription#fill}.
     *
     * @throws IllegalArgumentException when {@code type} is a record, an interface, an abstract class, or its
     *                                  package is not open to {@code io.quackjvm.api}
     */
    public static <O> FieldDescription<O> reflective(Class<O> type) {
        Objects.requireNonNull(type, "type");
        if (type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is a record; use ColumnarLayout.ofRecord("
                    + type.getSimpleName() + ".class)");
        }
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers()) || type.isArray() || type.isPrimitive()
                || type.isEnum()) {
            throw new IllegalArgumentException(type.getName() + " cannot be described reflectively: it must be a "
                    + "concrete class");
        }
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            hierarchy.add(0, c);
        }
        List<ColumnarDescription.Field<O>> fields = new ArrayList<>();
        List<Field> reflected = new ArrayList<>();
        for (Class<?> c : hierarchy) {
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isStatic(m) || Modifier.isTransient(m) || f.isSynthetic()) {
                    continue;
                }
                open(type, f);
                reflected.add(f);
                fields.add(field(f.getName(), f.getGenericType(), o -> {
                    try {
                        return f.get(o);
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException("Cannot read field " + f, e);
                    }
                }));
            }
        }
        Constructor<O> noArgs = null;
        try {
            noArgs = type.getDeclaredConstructor();
            open(type, noArgs);
        } catch (NoSuchMethodException e) {
            // allocated without a constructor by the layout provider: see ColumnarDescription.canConstruct
        }
        Constructor<O> ctor = noArgs;
        List<Field> setters = List.copyOf(reflected);
        Function<Object[], O> factory = ctor == null ? null : values -> {
            O o = construct(ctor, new Object[0]);
            fill(setters, o, values);
            return o;
        };
        return new FieldDescription<>(type, "REFLECTIVE", fields, factory, setters);
    }

    /** Explicit columns: each field's getter given by the caller, objects built by {@code factory}. */
    public static <O> FieldDescription<O> explicit(Class<O> type, List<ColumnarDescription.Field<O>> fields,
                                                   Function<Object[], O> factory) {
        return new FieldDescription<>(type, "EXPLICIT", fields, Objects.requireNonNull(factory, "factory"), null);
    }

    /** A stored field read by {@code getter}. */
    public static <O> ColumnarDescription.Field<O> field(String name, Type type, Function<? super O, ?> getter) {
        return new Accessor<>(name, type, getter);
    }

    /** The generic type {@code raw<element>}, such as {@code List<String>}, for an explicit column. */
    public static Type parameterized(Class<?> raw, Type element) {
        return new Parameterized(raw, element);
    }

    static void fill(List<Field> setters, Object o, Object[] values) {
        for (int i = 0; i < setters.size(); i++) {
            Field f = setters.get(i);
            try {
                f.set(o, values[i]);
            } catch (IllegalAccessException | IllegalArgumentException e) {
                throw new IllegalStateException("Cannot set field " + f + " to " + values[i], e);
            }
        }
    }

    private static void open(Class<?> type, AccessibleObject member) {
        try {
            member.setAccessible(true);
        } catch (RuntimeException e) { // InaccessibleObjectException, SecurityException
            String pkg = type.getPackageName();
            throw new IllegalArgumentException("Cannot reach " + member + " of " + type.getName() + ": add 'opens "
                    + pkg + " to io.quackjvm.api;' to module " + type.getModule().getName() + " (or run with "
                    + "--add-opens " + type.getModule().getName() + "/" + pkg + "=io.quackjvm.api), or describe "
                    + "the class with ColumnarLayout.builder and method references", e);
        }
    }

    private static Object invoke(Method accessor, Object o) {
        try {
            return accessor.invoke(o);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot call " + accessor, e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(accessor + " threw " + e.getCause(), e.getCause());
        }
    }

    private static <O> O construct(Constructor<O> ctor, Object[] values) {
        try {
            return ctor.newInstance(values);
        } catch (InstantiationException | IllegalAccessException | IllegalArgumentException e) {
            throw new IllegalStateException("Cannot call " + ctor + " with " + Arrays.toString(values), e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(ctor + " threw " + e.getCause() + " for " + Arrays.toString(values),
                    e.getCause());
        }
    }

    /** A field's name, type and getter, as a layout provider reads it. */
    private record Accessor<O>(String name, Type type, Function<? super O, ?> getter)
            implements ColumnarDescription.Field<O> {
        @Override
        public Object get(O object) {
            return getter.apply(object);
        }

        @Override
        public String toString() {
            return name + ": " + type.getTypeName();
        }
    }

    /** {@code List<E>} or {@code Set<E>} for explicit columns. */
    private record Parameterized(Class<?> raw, Type element) implements ParameterizedType {
        @Override public Type[] getActualTypeArguments() { return new Type[]{element}; }
        @Override public Type getRawType() { return raw; }
        @Override public Type getOwnerType() { return null; }
        @Override public String getTypeName() { return raw.getName() + "<" + element.getTypeName() + ">"; }
    }
}
