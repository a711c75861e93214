package io.quackjvm.storage.blob;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.serializers.FieldSerializer;
import com.esotericsoftware.kryo.serializers.RecordSerializer;

import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shapes of the user's classes as Kryo writes them, one list per version of the classes: a record's components
 * and an ordinary class's fields in the order Kryo writes them (by name), each with its declared type, and an enum's
 * constants (Kryo writes a constant's position). The blob layout keeps every version it has written rows with in
 * the file, so a row written before a class gained or lost a field can still be read, and a change it cannot
 * follow (a field's type) is found when the collection is opened.
 *
 * <p>The text form is one line per entry, tab-separated, and is read back strictly: the file may come from anyone,
 * so nothing in it is loaded or built unless the allow-list admits it. Immutable and thread-safe.
 */
record ClassShapes(List<Map<String, Shape>> versions) {

    private static final String HEADER = "quackjvm-kryo-shapes 1";

    /** How Kryo writes a class: field by field ({@code CLASS}), component by component, or as an enum position. */
    enum Kind { CLASS, RECORD, ENUM }

    /**
     * One field or record component: its name, its declared type as {@link java.lang.reflect.Type#getTypeName()}
     * gives it, the name of its erased class, and whether Kryo writes its value without a class (a primitive, or
     * a final class).
     */
    record FieldShape(String name, String type, String erasure, boolean primitive, boolean fixed) {
    }

    /** One class: its kind, its fields in Kryo's order (none for an enum), its constants in order (enums only). */
    record Shape(String className, Kind kind, List<FieldShape> fields, List<String> constants) {
        FieldShape field(String name) {
            for (FieldShape f : fields) {
                if (f.name.equals(name)) {
                    return f;
                }
            }
            return null;
        }
    }

    ClassShapes {
        versions = List.copyOf(versions);
    }

    /**
     * The shapes Kryo gives {@code classes} today: the records, enums and classes that Kryo writes field by field.
     * A class with a serializer of its own (a {@code @DefaultSerializer}, {@code KryoSerializable}) or one whose
     * fields Kryo cannot reach is left out: its rows are read as the class is now.
     */
    static Map<String, Shape> describe(Kryo kryo, List<Class<?>> classes) {
        Map<String, Shape> shapes = new LinkedHashMap<>();
        for (Class<?> type : classes) {
            Shape shape = describe(kryo, type);
            if (shape != null) {
                shapes.put(type.getName(), shape);
            }
        }
        return Map.copyOf(shapes);
    }

    private static Shape describe(Kryo kryo, Class<?> type) {
        if (type.isInterface() || type.isArray()) {
            return null;
        }
        if (type.isEnum()) {
            return new Shape(type.getName(), Kind.ENUM, List.of(),
                    Arrays.stream(type.getEnumConstants()).map(e -> ((Enum<?>) e).name()).toList());
        }
        if (java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
            return null;
        }
        Serializer<?> serializer;
        try {
            serializer = kryo.getDefaultSerializer(type);
        } catch (RuntimeException e) {
            return null; // Kryo cannot take the class apart here (a package not open to it): nothing to describe
        }
        List<FieldShape> fields = new ArrayList<>();
        if (serializer.getClass() == RecordSerializer.class) {
            RecordComponent[] components = type.getRecordComponents().clone();
            Arrays.sort(components, Comparator.comparing(RecordComponent::getName));
            for (RecordComponent c : components) {
                fields.add(new FieldShape(c.getName(), c.getGenericType().getTypeName(), c.getType().getName(),
                        c.getType().isPrimitive(), kryo.isFinal(c.getType())));
            }
            return new Shape(type.getName(), Kind.RECORD, fields, List.of());
        }
        if (serializer.getClass() == FieldSerializer.class) {
            for (FieldSerializer.CachedField cf : ((FieldSerializer<?>) serializer).getFields()) {
                Field f = cf.getField();
                fields.add(new FieldShape(cf.getName(), f.getGenericType().getTypeName(), f.getType().getName(),
                        f.getType().isPrimitive(), cf.getValueClass() != null || kryo.isFinal(f.getType())));
            }
            return new Shape(type.getName(), Kind.CLASS, fields, List.of());
        }
        return null;
    }

    /** The version whose shapes are {@code current}, the latest such, or -1. */
    int versionOf(Map<String, Shape> current) {
        for (int v = versions.size() - 1; v >= 0; v--) {
            if (versions.get(v).equals(current)) {
                return v;
            }
        }
        return -1;
    }

    ClassShapes with(Map<String, Shape> current) {
        List<Map<String, Shape>> all = new ArrayList<>(versions);
        all.add(current);
        return new ClassShapes(all);
    }

    String format() {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (Map<String, Shape> version : versions) {
            out.append("version\n");
            for (Shape s : version.values().stream().sorted(Comparator.comparing(Shape::className)).toList()) {
                out.append(s.kind.name().toLowerCase(java.util.Locale.ROOT)).append('\t').append(s.className);
                if (s.kind == Kind.ENUM) {
                    out.append('\t').append(String.join(",", s.constants));
                }
                out.append('\n');
                for (FieldShape f : s.fields) {
                    out.append("field\t").append(f.name).append('\t').append(f.type).append('\t').append(f.erasure)
                            .append('\t').append(f.primitive ? "primitive" : f.fixed ? "fixed" : "any").append('\n');
                }
            }
        }
        return out.toString();
    }

    /**
     * Reads the text form back.
     *
     * @throws IllegalStateException when the text is not a record this layout wrote
     */
    static ClassShapes parse(String text) {
        String[] lines = text.split("\n", -1);
        if (lines.length == 0 || !lines[0].equals(HEADER)) {
            throw malformed("it does not start with '" + HEADER + "'");
        }
        List<Map<String, Shape>> versions = new ArrayList<>();
        Map<String, Shape> version = null;
        String className = null;
        Kind kind = null;
        List<FieldShape> fields = null;
        List<String> constants = null;
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            String[] parts = line.split("\t", -1);
            boolean endsShape = line.isEmpty() || !parts[0].equals("field");
            if (endsShape && className != null) {
                version.put(className, new Shape(className, kind, List.copyOf(fields), constants));
                className = null;
            }
            if (line.isEmpty()) {
                if (i != lines.length - 1) {
                    throw malformed("line " + (i + 1) + " is empty");
                }
            } else if (parts[0].equals("version") && parts.length == 1) {
                version = new LinkedHashMap<>();
                versions.add(version);
            } else if (version != null && parts.length >= 2 && List.of("class", "record", "enum").contains(parts[0])) {
                className = parts[1];
                kind = Kind.valueOf(parts[0].toUpperCase(java.util.Locale.ROOT));
                fields = new ArrayList<>();
                if (kind == Kind.ENUM) {
                    if (parts.length != 3) {
                        throw malformed("line " + (i + 1) + " does not list the enum's constants");
                    }
                    constants = parts[2].isEmpty() ? List.of() : List.of(parts[2].split(","));
                } else if (parts.length != 2) {
                    throw malformed("line " + (i + 1) + " has " + parts.length + " entries");
                } else {
                    constants = List.of();
                }
            } else if (className != null && kind != Kind.ENUM && parts[0].equals("field") && parts.length == 5
                    && List.of("primitive", "fixed", "any").contains(parts[4])) {
                fields.add(new FieldShape(parts[1], parts[2], parts[3], parts[4].equals("primitive"),
                        !parts[4].equals("any")));
            } else {
                throw malformed("line " + (i + 1) + " is not understood: " + line);
            }
        }
        if (versions.isEmpty()) {
            throw malformed("it records no version");
        }
        return new ClassShapes(versions.stream().map(Map::copyOf).toList());
    }

    private static IllegalStateException malformed(String why) {
        return new IllegalStateException("the blob layout's record of the stored classes' shapes is damaged ("
                + why + "); the file was changed outside quackjvm");
    }
}
