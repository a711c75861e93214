package org.example.quackjvm.json;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Converts a record to a flat JSON object and back. Immutable and thread-safe. Deliberately small: it is a
 * sample, not a JSON library.
 */
final class RecordCodec<O> {

    private static final Set<Class<?>> SUPPORTED = Set.of(String.class, int.class, long.class, double.class,
            boolean.class, Integer.class, Long.class, Double.class, Boolean.class);

    private final Class<O> type;
    private final RecordComponent[] components;
    private final Method[] accessors;
    private final Constructor<O> constructor;

    private RecordCodec(Class<O> type, RecordComponent[] components, Method[] accessors, Constructor<O> constructor) {
        this.type = type;
        this.components = components;
        this.accessors = accessors;
        this.constructor = constructor;
    }

    static <O> RecordCodec<O> of(Class<O> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException("The json-text layout stores records only, and " + type.getName()
                    + " is not a record");
        }
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Method[] accessors = new Method[components.length];
        for (int i = 0; i < components.length; i++) {
            Class<?> t = components[i].getType();
            if (!SUPPORTED.contains(t) && !t.isEnum()) {
                throw new IllegalArgumentException("The json-text layout cannot store field '"
                        + components[i].getName() + "' of " + type.getName() + ": type " + t.getName()
                        + " is not a string, primitive, boxed primitive or enum");
            }
            types[i] = t;
            accessors[i] = components[i].getAccessor();
        }
        try {
            Constructor<O> constructor = type.getDeclaredConstructor(types);
            if (!constructor.canAccess(null)) {
                constructor.setAccessible(true);
            }
            for (Method accessor : accessors) {
                accessor.setAccessible(true);
            }
            return new RecordCodec<>(type, components, accessors, constructor);
        } catch (NoSuchMethodException | RuntimeException e) {
            throw new IllegalArgumentException("The json-text layout cannot reach the canonical constructor and "
                    + "accessors of " + type.getName() + ": make the record public and export or open its package "
                    + "to module org.example.quackjvm.json (" + e.getMessage() + ")", e);
        }
    }

    /** The component names, in declaration order. */
    String[] names() {
        String[] out = new String[components.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = components[i].getName();
        }
        return out;
    }

    /** The component types, in declaration order. */
    Class<?>[] types() {
        Class<?>[] out = new Class<?>[components.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = components[i].getType();
        }
        return out;
    }

    /** The value of component {@code i} of {@code object}. */
    Object value(O object, int i) {
        return get(accessors[i], object);
    }

    String toJson(O object) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < components.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            quote(sb, components[i].getName()).append(':');
            Object value = get(accessors[i], object);
            if (value == null) {
                sb.append("null");
            } else if (value instanceof String || value instanceof Enum) {
                quote(sb, value instanceof Enum<?> e ? e.name() : (String) value);
            } else if (value instanceof Double d && (d.isNaN() || d.isInfinite())) {
                quote(sb, d.toString());
            } else {
                sb.append(value);
            }
        }
        return sb.append('}').toString();
    }

    O fromJson(String json) {
        Map<String, String> raw = new FlatJsonReader(json).read();
        Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            String text = raw.get(components[i].getName());
            args[i] = convert(components[i].getType(), text);
        }
        try {
            return constructor.newInstance(args);
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("Cannot rebuild a " + type.getName() + " from " + json, e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object convert(Class<?> t, String text) {
        if (text == null) {
            if (t.isPrimitive()) {
                throw new IllegalStateException("null for primitive component of type " + t);
            }
            return null;
        }
        if (t == String.class) {
            return text;
        }
        if (t.isEnum()) {
            return Enum.valueOf((Class) t, text);
        }
        if (t == int.class || t == Integer.class) {
            return Integer.valueOf(text);
        }
        if (t == long.class || t == Long.class) {
            return Long.valueOf(text);
        }
        if (t == double.class || t == Double.class) {
            return Double.valueOf(text);
        }
        return Boolean.valueOf(text);
    }

    private static Object get(Method accessor, Object target) {
        try {
            return accessor.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("Cannot read " + accessor, e);
        }
    }

    private static StringBuilder quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }

    /** Reads {@code {"name":value,...}} with string, number, boolean or null values, as {@link #toJson} writes. */
    private static final class FlatJsonReader {
        private final String s;
        private int pos;

        FlatJsonReader(String s) {
            this.s = s;
        }

        Map<String, String> read() {
            Map<String, String> values = new HashMap<>();
            expect('{');
            if (peek() == '}') {
                return values;
            }
            do {
                String name = string();
                expect(':');
                values.put(name, value());
            } while (optional(','));
            expect('}');
            return values;
        }

        private String value() {
            if (peek() == '"') {
                return string();
            }
            int start = pos;
            while (pos < s.length() && ",}".indexOf(s.charAt(pos)) < 0) {
                pos++;
            }
            String literal = s.substring(start, pos).trim();
            return literal.equals("null") ? null : literal;
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> sb.append(e);
                }
            }
        }

        private char peek() {
            while (Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
            return s.charAt(pos);
        }

        private boolean optional(char c) {
            if (peek() == c) {
                pos++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (peek() != c) {
                throw new IllegalStateException("Expected '" + c + "' at " + pos + " of " + s);
            }
            pos++;
        }
    }
}
