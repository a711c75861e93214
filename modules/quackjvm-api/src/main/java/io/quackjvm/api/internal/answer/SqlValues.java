package io.quackjvm.api.internal.answer;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.RowSource;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the values of a query's rows (in the {@link RowSource} representation) into the Java types the caller
 * asks for: a single value ({@link #convert}), or a whole row into a record whose components are matched to the
 * columns by name, ignoring case ({@link #mapper}). A conversion that would lose information (a fraction to an
 * integer, a number out of range) fails naming the column. Stateless.
 */
public final class SqlValues {

    private SqlValues() {
    }

    /** The mapper of rows to {@code type}: a record by column names, anything else from the first column. */
    public static <R> SqlRunner.RowMapper<R> mapper(Class<R> type, List<String> columns) {
        if (type.isRecord()) {
            return recordMapper(type, columns);
        }
        if (columns.isEmpty()) {
            throw new QuackException("The query returns no columns");
        }
        String column = columns.get(0);
        return row -> convert(row.getObject(0), type, column);
    }

    private static <R> SqlRunner.RowMapper<R> recordMapper(Class<R> type, List<String> columns) {
        RecordComponent[] components = type.getRecordComponents();
        int[] positions = new int[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            String name = components[i].getName();
            positions[i] = -1;
            for (int j = 0; j < columns.size(); j++) {
                if (columns.get(j).equalsIgnoreCase(name)) {
                    positions[i] = j;
                    break;
                }
            }
            if (positions[i] < 0) {
                throw new QuackException("Record " + type.getName() + " has component '" + name + "' but the query "
                        + "returns no column of that name (columns: " + columns + "); name the column with AS " + name);
            }
            types[i] = components[i].getType();
        }
        Constructor<R> constructor;
        try {
            constructor = type.getDeclaredConstructor(types);
            if (!constructor.canAccess(null) && !constructor.trySetAccessible()) {
                throw new QuackException("Cannot create records of " + type.getName() + ": its constructor is not "
                        + "accessible to module io.quackjvm.api; make the record public in an exported package, or "
                        + "open its package to io.quackjvm.api");
            }
        } catch (NoSuchMethodException e) {
            throw new QuackException("Record " + type.getName() + " has no canonical constructor", e);
        }
        return row -> {
            Object[] args = new Object[positions.length];
            for (int i = 0; i < positions.length; i++) {
                Object v = convert(row.getObject(positions[i]), types[i], columns.get(positions[i]));
                if (v == null && types[i].isPrimitive()) {
                    throw new QuackException("Column '" + columns.get(positions[i]) + "' is NULL in a row, which "
                            + "record component '" + components[i].getName() + "' (" + types[i].getName()
                            + ") of " + type.getName() + " cannot hold; use a boxed type or coalesce() in SQL");
                }
                args[i] = v;
            }
            try {
                return constructor.newInstance(args);
            } catch (ReflectiveOperationException e) {
                throw new QuackException("Creating a " + type.getName() + " from a query row failed: " + e, e);
            }
        };
    }

    /**
     * {@code value} as {@code type}.
     *
     * @throws QuackException naming {@code column}, the value and the type when it cannot be converted exactly
     */
    @SuppressWarnings("unchecked")
    public static <T> T convert(Object value, Class<T> type, String column) {
        if (value == null) {
            return null;
        }
        Class<?> boxed = box(type);
        if (boxed.isInstance(value)) {
            return (T) value;
        }
        try {
            Object out = convertOrNull(value, boxed);
            if (out != null) {
                return (T) out;
            }
        } catch (ArithmeticException | IllegalArgumentException e) {
            throw cannot(value, type, column, ": " + e.getMessage());
        }
        throw cannot(value, type, column, "");
    }

    private static QuackException cannot(Object value, Class<?> type, String column, String why) {
        return new QuackException("Column '" + column + "' holds " + value + " (" + value.getClass().getSimpleName()
                + "), which cannot be converted to " + type.getName() + why + "; cast it in SQL or choose another "
                + "type");
    }

    private static Object convertOrNull(Object value, Class<?> type) {
        if (type == String.class) {
            return value instanceof Map || value instanceof List ? null : value.toString();
        }
        if (value instanceof Number n) {
            if (type == Double.class) {
                return n.doubleValue();
            }
            if (type == Float.class) {
                return n.floatValue();
            }
            BigDecimal exact = n instanceof BigDecimal b ? b : n instanceof BigInteger i ? new BigDecimal(i)
                    : n instanceof Double || n instanceof Float ? new BigDecimal(n.toString()) : BigDecimal.valueOf(n.longValue());
            if (type == Long.class) {
                return exact.longValueExact();
            }
            if (type == Integer.class) {
                return exact.intValueExact();
            }
            if (type == Short.class) {
                return exact.shortValueExact();
            }
            if (type == Byte.class) {
                return exact.byteValueExact();
            }
            if (type == BigDecimal.class) {
                return exact;
            }
            if (type == BigInteger.class) {
                return exact.toBigIntegerExact();
            }
            return null;
        }
        if (value instanceof String s) {
            if (type == Character.class && s.length() == 1) {
                return s.charAt(0);
            }
            if (type.isEnum()) {
                for (Object c : type.getEnumConstants()) {
                    if (((Enum<?>) c).name().equals(s)) {
                        return c;
                    }
                }
                throw new IllegalArgumentException("no constant " + s + " in " + type.getName());
            }
            return null;
        }
        if (value instanceof OffsetDateTime t) {
            if (type == Instant.class) {
                return t.toInstant();
            }
            if (type == LocalDateTime.class) {
                return LocalDateTime.ofInstant(t.toInstant(), ZoneOffset.UTC);
            }
            if (type == java.util.Date.class) {
                return java.util.Date.from(t.toInstant());
            }
            return null;
        }
        if (value instanceof LocalDateTime t) {
            if (type == Instant.class) {
                return t.toInstant(ZoneOffset.UTC);
            }
            if (type == java.util.Date.class) {
                return java.util.Date.from(t.toInstant(ZoneOffset.UTC));
            }
            if (type == LocalDate.class && t.toLocalTime().toNanoOfDay() == 0) {
                return t.toLocalDate();
            }
            return null;
        }
        return null;
    }

    private static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return switch (type.getName()) {
            case "int" -> Integer.class;
            case "long" -> Long.class;
            case "double" -> Double.class;
            case "float" -> Float.class;
            case "short" -> Short.class;
            case "byte" -> Byte.class;
            case "boolean" -> Boolean.class;
            case "char" -> Character.class;
            default -> throw new IllegalArgumentException(type.getName() + " (void) holds no value");
        };
    }

    /** Lower-cased, for matching names. */
    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
