package io.quackjvm.storage.blob;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.SerializerFactory;
import io.quackjvm.storage.blob.ClassShapes.FieldShape;
import io.quackjvm.storage.blob.ClassShapes.Kind;
import io.quackjvm.storage.blob.ClassShapes.Shape;

import java.lang.reflect.Constructor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How rows written with earlier shapes of the user's classes are read: for each class whose shape changed, and for
 * each version of the shapes, the fields a row of that version holds in the order Kryo wrote them, which of them
 * the class still has, and how to read past the others. Built once, when the collection is opened, by
 * {@link #reconcile}, which also refuses every change it cannot follow, so no row fails later for it.
 * Immutable and thread-safe.
 */
final class Evolution {

    /** No row of an earlier shape: every row is read as the classes are now. */
    static final Evolution NONE = new Evolution(0, 1, Map.of());

    /** The version new rows are written with. */
    final int writeVersion;
    /** How many versions rows may carry. */
    final int versions;
    /** By class name, for classes whose shape changed: per version, the steps of a row, or null to read as now. */
    private final Map<String, Step[][]> plans;

    private Evolution(int writeVersion, int versions, Map<String, Step[][]> plans) {
        this.writeVersion = writeVersion;
        this.versions = versions;
        this.plans = plans;
    }

    /**
     * One field of a stored row, in the row's order: whether the class still has it (by name, with the same type),
     * and how its value is written: as a primitive, as a value of a fixed class, or with its class first.
     *
     * @param index   for a record, the component's position in the canonical constructor; -1 when it was removed
     * @param erasure the class to read the value as (a primitive class for a primitive), or null when the value
     *                carries its class
     * @param type    the declared type, for the type arguments Kryo uses to read collections and maps
     */
    record Step(String name, boolean kept, int index, boolean primitive, boolean fixed, Class<?> erasure, Type type) {
    }

    /** Result of {@link #reconcile}: how to read and write, and the record to keep in the file. */
    record Reconciled(Evolution evolution, ClassShapes shapes) {
    }

    /**
     * Checks the shapes recorded in the file against the classes now and plans how to read each earlier version.
     *
     * @throws IllegalStateException naming the class, the field and the fix, for a change rows cannot survive
     */
    static Reconciled reconcile(ClassShapes stored, Map<String, Shape> current, ClassAllowList allowList,
                                List<Class<?>> classes) {
        Map<String, Class<?>> byName = new HashMap<>();
        classes.forEach(c -> byName.put(c.getName(), c));
        int version = stored.versionOf(current);
        ClassShapes shapes = version >= 0 ? stored : stored.with(current);
        int writeVersion = version >= 0 ? version : shapes.versions().size() - 1;
        Map<String, Step[][]> plans = new HashMap<>();
        for (int v = 0; v < shapes.versions().size(); v++) {
            for (Shape old : shapes.versions().get(v).values()) {
                Shape now = current.get(old.className());
                if (now == null || old.equals(now)) {
                    continue;
                }
                Step[] steps = plan(old, now, byName.get(now.className()), allowList);
                if (steps != null) {
                    plans.computeIfAbsent(now.className(), k -> new Step[shapes.versions().size()][])[v] = steps;
                }
            }
        }
        return new Reconciled(new Evolution(writeVersion, shapes.versions().size(), Map.copyOf(plans)), shapes);
    }

    private static Step[] plan(Shape old, Shape now, Class<?> type, ClassAllowList allowList) {
        String cls = now.className();
        if (old.kind() != now.kind()) {
            throw new IllegalStateException(cls + " was stored as " + article(old.kind()) + " and is now "
                    + article(now.kind()) + "; stored objects cannot be read as the new kind. Keep its kind, or "
                    + "store the new class under another name");
        }
        if (now.kind() == Kind.ENUM) {
            List<String> was = old.constants();
            List<String> is = now.constants();
            for (int i = 0; i < was.size(); i++) {
                if (i >= is.size() || !was.get(i).equals(is.get(i))) {
                    throw new IllegalStateException("enum " + cls + " no longer has constant " + was.get(i)
                            + " at position " + i + " (stored " + was + ", now " + is + "); stored objects "
                            + "hold its constants by position. Keep the stored constants in their order and add new "
                            + "ones at the end");
                }
            }
            return null;
        }
        List<RecordComponent> components = now.kind() == Kind.RECORD ? Arrays.asList(type.getRecordComponents()) : null;
        List<Step> steps = new ArrayList<>();
        for (FieldShape f : old.fields()) {
            FieldShape n = now.field(f.name());
            if (n != null) {
                if (!n.type().equals(f.type()) || n.primitive() != f.primitive() || n.fixed() != f.fixed()) {
                    throw new IllegalStateException("field " + f.name() + " of " + cls + " was stored as "
                            + describe(f) + " and is now " + describe(n) + "; stored objects cannot be read as "
                            + "the new type. Keep the stored type, or give the field of the new type another name "
                            + "(the stored values of the old one are then skipped)");
                }
                int index = -1;
                Class<?> erasure = null;
                if (components != null) {
                    for (int i = 0; i < components.size(); i++) {
                        if (components.get(i).getName().equals(f.name())) {
                            index = i;
                            erasure = components.get(i).getType();
                        }
                    }
                }
                steps.add(new Step(f.name(), true, index, f.primitive(), f.fixed(), erasure, null));
            } else {
                steps.add(removed(cls, f, allowList, type.getClassLoader()));
            }
        }
        if (components != null) {
            try {
                Constructor<?> constructor = canonicalConstructor(type);
                if (!constructor.trySetAccessible()) {
                    throw new IllegalStateException("record " + cls + " changed since objects were stored, and "
                            + "reading the stored ones calls its canonical constructor, which module "
                            + "io.quackjvm.storage cannot reach. Add 'opens " + type.getPackageName()
                            + " to io.quackjvm.storage;' to your module-info.java");
                }
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("record " + cls + " has no canonical constructor", e);
            }
        }
        return steps.toArray(Step[]::new);
    }

    /** How to read past a field the class no longer has. */
    private static Step removed(String cls, FieldShape f, ClassAllowList allowList, ClassLoader loader) {
        if (f.primitive()) {
            Class<?> p = PRIMITIVES.get(f.erasure());
            if (p == null || !f.type().equals(f.erasure())) {
                throw new IllegalStateException("the record of stored shapes names field " + f.name() + " of " + cls
                        + " as primitive type '" + f.type() + "'; the file was changed outside quackjvm");
            }
            return new Step(f.name(), false, -1, true, true, p, null);
        }
        String why = "field " + f.name() + " (" + f.type() + ") was removed from " + cls + ", and stored objects "
                + "still hold its values; reading past them needs ";
        Type type = new TypeParser(f.type(), allowList, loader, why).parse(f.fixed());
        Class<?> erasure = erasure(type);
        if (!erasure.getName().equals(f.erasure())) {
            throw new IllegalStateException("the record of stored shapes gives field " + f.name() + " of " + cls
                    + " the type " + f.type() + " but the class " + f.erasure() + "; the file was changed outside "
                    + "quackjvm");
        }
        return new Step(f.name(), false, -1, false, f.fixed(), f.fixed() ? erasure : null, type);
    }

    private static String describe(FieldShape f) {
        return f.type() + (f.primitive() || f.fixed() ? "" : " (written with its class)");
    }

    private static String article(Kind kind) {
        return switch (kind) {
            case CLASS -> "a class";
            case RECORD -> "a record";
            case ENUM -> "an enum";
        };
    }

    static Constructor<?> canonicalConstructor(Class<?> record) throws NoSuchMethodException {
        return record.getDeclaredConstructor(Arrays.stream(record.getRecordComponents())
                .map(RecordComponent::getType).toArray(Class<?>[]::new));
    }

    private static Class<?> erasure(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        return erasure(((GenericArrayType) type).getGenericComponentType()).arrayType();
    }

    /** The steps for rows of {@code version} of {@code type}, or null when they are read as the class is now. */
    Step[] plan(Class<?> type, int version) {
        Step[][] byVersion = plans.get(type.getName());
        return byVersion == null ? null : byVersion[version];
    }

    /** Whether any class changed: only then do the serializers of {@link EvolvingSerializers} take part. */
    boolean changes() {
        return !plans.isEmpty();
    }

    /** Kryo's serializers for the changed classes, reading each row as the version {@code row} holds. */
    SerializerFactory<Serializer<?>> serializers(EvolvingSerializers.RowVersion row) {
        return new SerializerFactory<>() {
            @Override
            public Serializer<?> newSerializer(Kryo kryo, Class type) {
                return type.isRecord() ? new EvolvingSerializers.Records<>(type, Evolution.this, row)
                        : new EvolvingSerializers.Fields<>(kryo, type, Evolution.this, row);
            }

            @Override
            public boolean isSupported(Class type) {
                return plans.containsKey(type.getName()) && !type.isEnum();
            }
        };
    }

    private static final Map<String, Class<?>> PRIMITIVES = Map.of("int", int.class, "long", long.class,
            "float", float.class, "double", double.class, "boolean", boolean.class, "byte", byte.class,
            "char", char.class, "short", short.class);

    /**
     * Reads a declared type back from its {@link Type#getTypeName()} text, loading a class only when the allow-list
     * admits it: the text comes from the file. Wildcards become the class Kryo resolves them to.
     */
    private static final class TypeParser {
        private final String text;
        private final ClassAllowList allowList;
        private final ClassLoader loader;
        private final String why;
        private int pos;

        TypeParser(String text, ClassAllowList allowList, ClassLoader loader, String why) {
            this.text = text;
            this.allowList = allowList;
            this.loader = loader;
            this.why = why;
        }

        /**
         * @param fixed whether the value is read as its declared class, not as the class the row names; the
         *              declared class is then built as it stands, so it must be on the allow-list (a class the row
         *              names is checked by the class resolver when it is read, so only its type arguments must be)
         */
        Type parse(boolean fixed) {
            Type t = type(fixed);
            if (pos != text.length()) {
                throw new IllegalStateException(why + "its type, which cannot be read back (at '"
                        + text.substring(pos) + "'). Put the field back");
            }
            return t;
        }

        /**
         * A type. {@code fixed}: whether a value is built as this class without the row naming it; a type argument
         * is, when its class is final (Kryo then writes no class for the elements).
         */
        private Type type(Boolean fixed) {
            if (text.startsWith("?", pos)) {
                pos++;
                if (text.startsWith(" extends ", pos)) {
                    pos += " extends ".length();
                    return type(null);
                }
                if (text.startsWith(" super ", pos)) {
                    pos += " super ".length();
                    return type(null);
                }
                return Object.class;
            }
            int start = pos;
            while (pos < text.length() && "<>,[] ".indexOf(text.charAt(pos)) < 0) {
                pos++;
            }
            Type t = load(text.substring(start, pos), fixed);
            if (text.startsWith("<", pos)) {
                pos++;
                List<Type> args = new ArrayList<>();
                do {
                    if (text.startsWith(", ", pos)) {
                        pos += 2;
                    }
                    args.add(type(null));
                } while (text.startsWith(", ", pos));
                if (!text.startsWith(">", pos)) {
                    throw new IllegalStateException(why + "its type, which cannot be read back. Put the field back");
                }
                pos++;
                t = new Parameterized((Class<?>) t, args.toArray(Type[]::new));
            }
            while (text.startsWith("[]", pos)) {
                pos += 2;
                t = t instanceof Class<?> c ? c.arrayType() : new GenericArray(t);
            }
            return t;
        }

        /**
         * Loads a class without initialising it: one on the allow-list or of the JDK (loading builds nothing). A
         * class a value is built as ({@code fixed}, or null and the class is final) must be on the allow-list.
         */
        private Class<?> load(String name, Boolean fixed) {
            Class<?> primitive = PRIMITIVES.get(name);
            if (primitive != null) {
                return primitive;
            }
            boolean allowed = allowList.allows(name);
            if (!allowed && !ClassAllowList.isJdk(name)) {
                throw notAllowed(name);
            }
            Class<?> c;
            try {
                c = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalStateException(why + "class " + name + ", which cannot be found. Put the field "
                        + "back, or put the class back on the class path", e);
            }
            boolean built = fixed != null ? fixed : java.lang.reflect.Modifier.isFinal(c.getModifiers());
            if (built && !allowed) {
                throw notAllowed(name);
            }
            return c;
        }

        private IllegalStateException notAllowed(String name) {
            return new IllegalStateException(why + "class " + name + ", which is not among the classes this "
                    + "collection reads (or is a type variable, which cannot be read past). Put the field back, or "
                    + "allow the class with allowClasses(...) on the collection's builder");
        }
    }

    private record Parameterized(Class<?> raw, Type[] args) implements ParameterizedType {
        @Override
        public Type[] getActualTypeArguments() {
            return args.clone();
        }

        @Override
        public Type getRawType() {
            return raw;
        }

        @Override
        public Type getOwnerType() {
            return null;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Parameterized p && raw.equals(p.raw) && Arrays.equals(args, p.args);
        }

        @Override
        public int hashCode() {
            return Objects.hash(raw, Arrays.hashCode(args));
        }
    }

    private record GenericArray(Type component) implements GenericArrayType {
        @Override
        public Type getGenericComponentType() {
            return component;
        }
    }
}
