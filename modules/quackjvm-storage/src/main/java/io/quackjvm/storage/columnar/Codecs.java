package io.quackjvm.storage.columnar;

import io.quackjvm.api.spi.ColumnarDescription;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;
import io.quackjvm.api.spi.ValueType;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The codec for each supported Java type. The mapping (and why each type maps where it does) is the type table of
 * {@code docs/columnar.md}; in short, DuckDB's natural type wherever it round-trips exactly, an order-preserving
 * VARCHAR encoding (shared with index tables through {@link ValueType}) for {@code BigDecimal} and
 * {@code BigInteger}, whose precision DuckDB's DECIMAL and HUGEINT cannot hold.
 */
final class Codecs {

    private Codecs() {
    }

    /** DuckDB's TIMESTAMP range in epoch microseconds (measured: one microsecond beyond either end is refused). */
    static final long MIN_MICROS = -9_223_372_022_400_000_000L;   // 290309-12-22 (BC) 00:00:00
    static final long MAX_MICROS = 9_223_372_036_854_775_806L;    // 294247-01-10 04:00:54.775806
    /** DuckDB's DATE range in epoch days (+-2^31-2; the two values beyond are DuckDB's infinities). */
    static final long MIN_DAY = -2_147_483_646L;                  // 5877642-06-25 (BC)
    static final long MAX_DAY = 2_147_483_646L;                   // 5881580-07-10

    /** Thrown while choosing codecs: the message says what is unsupported, the caller adds where. */
    static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unsupported(String message) {
            super(message);
        }
    }

    /**
     * The codec for a field's type.
     *
     * @param nested   whether the value sits inside a LIST or STRUCT (LocalDateTime is stored differently there)
     * @param visiting records being described, to refuse a record that contains itself
     * @throws Unsupported when the type (or an element or component type) cannot be stored
     */
    static Codec of(Type type, boolean nested, Set<Class<?>> visiting) {
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            if (raw == List.class || raw == Set.class || raw == Collection.class) {
                Type element = p.getActualTypeArguments()[0];
                if (element instanceof WildcardType w && w.getLowerBounds().length == 0) {
                    element = w.getUpperBounds()[0];
                }
                Codec e;
                try {
                    e = of(element, true, visiting);
                } catch (Unsupported u) {
                    throw new Unsupported("its elements: " + u.getMessage());
                }
                return new ListCodec(raw == Set.class, e, type.getTypeName());
            }
            throw new Unsupported(type.getTypeName() + " is not supported (of generic types only List, Set and "
                    + "Collection are)");
        }
        if (!(type instanceof Class<?> c)) {
            throw new Unsupported("type " + type.getTypeName() + " is not a concrete type");
        }
        Codec scalar = scalar(c, nested);
        if (scalar != null) {
            return scalar;
        }
        if (c.isEnum()) {
            return new EnumCodec(c);
        }
        if (c.isRecord()) {
            if (!visiting.add(c)) {
                throw new Unsupported("record " + c.getName() + " contains itself");
            }
            try {
                return new StructCodec(ColumnarDescription.ofRecord(c), visiting);
            } finally {
                visiting.remove(c);
            }
        }
        if (c == List.class || c == Set.class || c == Collection.class) {
            throw new Unsupported("raw " + c.getSimpleName() + " has no element type; declare it as "
                    + c.getSimpleName() + "<String> or similar");
        }
        throw new Unsupported(c.getName() + " is not a supported column type");
    }

    private static Codec scalar(Class<?> c, boolean nested) {
        if (c == String.class) {
            return new Simple("VARCHAR", c) {
                @Override Object toSql(Object v) { return checkUtf16((String) v); }
                @Override Object fromSql(Object s) { return s; }
                @Override void write(Object v, RowWriter row) throws SQLException { row.putString(checkUtf16((String) v)); }
                @Override Object read(RowSource row, int col) throws SQLException { return row.getString(col); }
            };
        }
        if (c == char.class || c == Character.class) {
            return new Simple("VARCHAR", c) {
                @Override Object toSql(Object v) {
                    char ch = (Character) v;
                    if (Character.isSurrogate(ch)) {
                        throw new IllegalArgumentException("char \\u" + Integer.toHexString(ch) + " is half of a "
                                + "surrogate pair, which a DuckDB VARCHAR (UTF-8) cannot hold");
                    }
                    return String.valueOf(ch);
                }
                @Override Object fromSql(Object s) { return ((String) s).charAt(0); }
            };
        }
        if (c == boolean.class || c == Boolean.class) {
            return new Simple("BOOLEAN", c) {
                @Override Object toSql(Object v) { return v; }
                @Override Object fromSql(Object s) { return s; }
                @Override void write(Object v, RowWriter row) throws SQLException { row.putBoolean((Boolean) v); }
                @Override Object read(RowSource row, int col) throws SQLException {
                    boolean b = row.getBoolean(col);
                    return !b && row.isNull(col) ? null : b;
                }
            };
        }
        if (c == byte.class || c == Byte.class) {
            return new Simple("TINYINT", c) {
                @Override Object toSql(Object v) { return v; }
                @Override Object fromSql(Object s) { return ((Number) s).byteValue(); }
            };
        }
        if (c == short.class || c == Short.class) {
            return new Simple("SMALLINT", c) {
                @Override Object toSql(Object v) { return v; }
                @Override Object fromSql(Object s) { return ((Number) s).shortValue(); }
            };
        }
        if (c == int.class || c == Integer.class) {
            return new Simple("INTEGER", c) {
                @Override Object toSql(Object v) { return v; }
                @Override Object fromSql(Object s) { return ((Number) s).intValue(); }
                @Override void write(Object v, RowWriter row) throws SQLException { row.putInt((Integer) v); }
                @Override Object read(RowSource row, int col) throws SQLException {
                    int i = row.getInt(col);
                    return i == 0 && row.isNull(col) ? null : i;
                }
            };
        }
        if (c == long.class || c == Long.class) {
            return new Simple("BIGINT", c) {
                @Override Object toSql(Object v) { return v; }
                @Override Object fromSql(Object s) { return ((Number) s).longValue(); }
                @Override void write(Object v, RowWriter row) throws SQLException { row.putLong((Long) v); }
                @Override Object read(RowSource row, int col) throws SQLException {
                    long l = row.getLong(col);
                    return l == 0 && row.isNull(col) ? null : l;
                }
            };
        }
        if (c == float.class || c == Float.class) {
            return new Simple("FLOAT", c) {
                @Override Object toSql(Object v) { return v; }
                @Override Object fromSql(Object s) { return ((Number) s).floatValue(); }
            };
        }
        if (c == double.class || c == Double.class) {
            return new Simple("DOUBLE", c) {
                @Override Object toSql(Object v) { return v; }
                @Override Object fromSql(Object s) { return ((Number) s).doubleValue(); }
                @Override void write(Object v, RowWriter row) throws SQLException { row.putDouble((Double) v); }
                @Override Object read(RowSource row, int col) throws SQLException {
                    double d = row.getDouble(col);
                    // duckdb_jdbc returns NaN for NULL from getDouble; 0.0 is what other readers return
                    return (d == 0 || Double.isNaN(d)) && row.isNull(col) ? null : d;
                }
            };
        }
        if (c == BigDecimal.class || c == BigInteger.class) {
            @SuppressWarnings("unchecked")
            ValueType<Object> vt = (ValueType<Object>) ValueType.of(c);
            return new Simple("VARCHAR", c) {
                @Override Object toSql(Object v) { return vt.encode(v); }
                @Override Object fromSql(Object s) { return vt.decode(s); }
            };
        }
        if (c == UUID.class) {
            return new Simple("UUID", c) {
                @Override Object toSql(Object v) { return v; }
                // DuckDB's Arrow export turns a UUID into its text form (unless arrow_lossless_conversion is on).
                @Override Object fromSql(Object s) { return s instanceof String text ? UUID.fromString(text) : s; }
            };
        }
        if (c == byte[].class) {
            return new Simple("BLOB", c) {
                @Override Object toSql(Object v) { return v; }
                @Override Object fromSql(Object s) { return s; }
                @Override void write(Object v, RowWriter row) throws SQLException { row.putBytes((byte[]) v); }
                @Override Object read(RowSource row, int col) throws SQLException { return row.getBytes(col); }
            };
        }
        if (c == LocalDate.class) {
            return new Simple("DATE", c) {
                @Override Object toSql(Object v) { return checkDay((LocalDate) v); }
                @Override Object fromSql(Object s) { return s; }
            };
        }
        if (c == LocalTime.class) {
            return new Simple("TIME", c) {
                @Override Object toSql(Object v) {
                    LocalTime t = (LocalTime) v;
                    checkMicros(t.getNano(), t);
                    return t;
                }
                @Override Object fromSql(Object s) { return s; }
            };
        }
        if (c == LocalDateTime.class) {
            if (nested) {
                // duckdb_jdbc 1.5.6.0 returns a TIMESTAMP inside a LIST or STRUCT as a java.sql.Timestamp built in
                // the JVM's time zone and Julian calendar, which loses dates before 1583 and times in DST gaps;
                // TIMESTAMP WITH TIME ZONE comes back as an exact OffsetDateTime, so nested ones are stored at UTC.
                return new Simple("TIMESTAMP WITH TIME ZONE", c) {
                    @Override Object toSql(Object v) { return checkInstant(((LocalDateTime) v).atOffset(ZoneOffset.UTC)); }
                    @Override Object fromSql(Object s) {
                        return LocalDateTime.ofInstant(((OffsetDateTime) s).toInstant(), ZoneOffset.UTC);
                    }
                };
            }
            return new Simple("TIMESTAMP", c) {
                @Override Object toSql(Object v) {
                    LocalDateTime t = (LocalDateTime) v;
                    checkInstant(t.atOffset(ZoneOffset.UTC));
                    return t;
                }
                @Override Object fromSql(Object s) { return s; }
            };
        }
        if (c == Instant.class) {
            return new Simple("TIMESTAMP WITH TIME ZONE", c) {
                @Override Object toSql(Object v) { return checkInstant(((Instant) v).atOffset(ZoneOffset.UTC)); }
                @Override Object fromSql(Object s) { return ((OffsetDateTime) s).toInstant(); }
            };
        }
        if (c == OffsetDateTime.class) {
            // TIMESTAMP WITH TIME ZONE keeps the instant only: the value comes back at offset UTC.
            return new Simple("TIMESTAMP WITH TIME ZONE", c) {
                @Override Object toSql(Object v) {
                    return checkInstant(((OffsetDateTime) v).withOffsetSameInstant(ZoneOffset.UTC));
                }
                @Override Object fromSql(Object s) { return ((OffsetDateTime) s).withOffsetSameInstant(ZoneOffset.UTC); }
            };
        }
        if (c == java.sql.Timestamp.class) {
            return new Simple("TIMESTAMP WITH TIME ZONE", c) {
                @Override Object toSql(Object v) { return checkInstant(((java.sql.Timestamp) v).toInstant().atOffset(ZoneOffset.UTC)); }
                @Override Object fromSql(Object s) { return java.sql.Timestamp.from(((OffsetDateTime) s).toInstant()); }
            };
        }
        if (c == java.sql.Date.class) {
            return new Simple("DATE", c) {
                @Override Object toSql(Object v) {
                    java.sql.Date d = (java.sql.Date) v;
                    LocalDate local = d.toLocalDate();
                    if (java.sql.Date.valueOf(local).getTime() != d.getTime()) {
                        throw new IllegalArgumentException("java.sql.Date " + d + " (" + d.getTime() + " ms) is not "
                                + "midnight of a date after year 0 in the JVM's time zone, so a DATE cannot hold it; "
                                + "use LocalDate");
                    }
                    return checkDay(local);
                }
                @Override Object fromSql(Object s) { return java.sql.Date.valueOf((LocalDate) s); }
            };
        }
        if (c == java.sql.Time.class) {
            return new Simple("TIME", c) {
                @Override Object toSql(Object v) {
                    java.sql.Time t = (java.sql.Time) v;
                    LocalTime local = Instant.ofEpochMilli(t.getTime()).atZone(ZoneId.systemDefault()).toLocalTime();
                    if (toTime(local).getTime() != t.getTime()) {
                        throw new IllegalArgumentException("java.sql.Time " + t + " (" + t.getTime() + " ms) has a "
                                + "date part other than 1970-01-01, which a TIME cannot hold; use LocalTime");
                    }
                    return local;
                }
                @Override Object fromSql(Object s) { return toTime((LocalTime) s); }
            };
        }
        if (c == java.util.Date.class) {
            return new Simple("TIMESTAMP WITH TIME ZONE", c) {
                @Override Object toSql(Object v) {
                    return checkInstant(Instant.ofEpochMilli(((java.util.Date) v).getTime()).atOffset(ZoneOffset.UTC));
                }
                @Override Object fromSql(Object s) { return new java.util.Date(((OffsetDateTime) s).toInstant().toEpochMilli()); }
            };
        }
        return null;
    }

    private static java.sql.Time toTime(LocalTime t) {
        return new java.sql.Time(LocalDate.of(1970, 1, 1).atTime(t).atZone(ZoneId.systemDefault()).toInstant()
                .toEpochMilli());
    }

    /** DuckDB's VARCHAR is UTF-8: a lone surrogate would come back as something else. */
    static String checkUtf16(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (Character.isSurrogate(ch)) {
                if (Character.isHighSurrogate(ch) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                    continue;
                }
                throw new IllegalArgumentException("the string has an unpaired surrogate \\u"
                        + Integer.toHexString(ch) + " at index " + i + ", which a DuckDB VARCHAR (UTF-8) cannot hold");
            }
        }
        return s;
    }

    static LocalDate checkDay(LocalDate d) {
        long day = d.toEpochDay();
        if (day < MIN_DAY || day > MAX_DAY) {
            throw new IllegalArgumentException("date " + d + " is outside DuckDB's DATE range (5877642-06-25 BC to "
                    + "5881580-07-10)");
        }
        return d;
    }

    private static void checkMicros(int nanos, Object value) {
        if (nanos % 1000 != 0) {
            throw new IllegalArgumentException(value + " has nanoseconds; DuckDB's TIME and TIMESTAMP hold "
                    + "microseconds, so it cannot be stored exactly");
        }
    }

    /** Checks precision and range for the TIMESTAMP types, which hold int64 microseconds. */
    static OffsetDateTime checkInstant(OffsetDateTime t) {
        checkMicros(t.getNano(), t);
        long micros;
        try {
            micros = Math.addExact(Math.multiplyExact(t.toEpochSecond(), 1_000_000L), t.getNano() / 1000);
        } catch (ArithmeticException e) {
            micros = t.toEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        if (micros < MIN_MICROS || micros > MAX_MICROS) {
            throw new IllegalArgumentException(t + " is outside DuckDB's TIMESTAMP range (290309-12-22 BC 00:00:00 "
                    + "to 294247-01-10 04:00:54.775806 UTC)");
        }
        return t;
    }

    /** A codec for one non-nested type. */
    private abstract static class Simple extends Codec {
        private final boolean primitive;

        Simple(String sqlType, Class<?> type) {
            super(sqlType, type.getName());
            this.primitive = type.isPrimitive();
        }

        @Override
        boolean primitive() {
            return primitive;
        }
    }

    /** A Java enum as a DuckDB ENUM whose values are the constants in declaration order, so both order alike. */
    private static final class EnumCodec extends Codec {
        private final Class<?> type;

        EnumCodec(Class<?> type) {
            super(enumType(type), type.getName());
            this.type = type;
        }

        private static String enumType(Class<?> type) {
            Object[] constants = type.getEnumConstants();
            if (constants.length == 0) {
                throw new Unsupported("enum " + type.getName() + " has no constants; a DuckDB ENUM needs one");
            }
            StringBuilder sb = new StringBuilder("ENUM(");
            for (int i = 0; i < constants.length; i++) {
                sb.append(i == 0 ? "'" : ", '").append(((Enum<?>) constants[i]).name().replace("'", "''")).append('\'');
            }
            return sb.append(')').toString();
        }

        @Override Object toSql(Object v) { return ((Enum<?>) v).name(); }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        Object fromSql(Object s) {
            return Enum.valueOf((Class) type, (String) s);
        }
    }

    /** A List or Set as a DuckDB LIST; a Set comes back as a LinkedHashSet in stored order. */
    static final class ListCodec extends Codec {
        private final boolean set;
        private final Codec element;

        ListCodec(boolean set, Codec element, String javaType) {
            super(element.sqlType() + "[]", javaType);
            this.set = set;
            this.element = element;
        }

        /** The codec of the elements. */
        Codec element() {
            return element;
        }

        @Override
        Object toSql(Object v) {
            Collection<?> values = (Collection<?>) v;
            List<Object> out = new ArrayList<>(values.size());
            for (Object e : values) {
                out.add(e == null ? null : element.toSql(e));
            }
            return out;
        }

        @Override
        Object fromSql(Object s) {
            List<?> values = (List<?>) s;
            Collection<Object> out = set ? new LinkedHashSet<>(values.size() * 2) : new ArrayList<>(values.size());
            for (Object e : values) {
                out.add(e == null ? null : element.fromSql(e));
            }
            return out;
        }

        @Override
        void write(Object value, RowWriter row) throws SQLException {
            row.putNested(sqlType(), toSql(value));
        }
    }

    /** A record as a DuckDB STRUCT with one field per component. */
    static final class StructCodec extends Codec {
        private final ColumnarDescription<?> layout;
        private final String[] names;
        private final Codec[] fields;

        StructCodec(ColumnarDescription<?> layout, Set<Class<?>> visiting) {
            this(layout, describe(layout, visiting));
        }

        private StructCodec(ColumnarDescription<?> layout, Codec[] fields) {
            super(structType(layout, fields), layout.objectType().getName());
            this.layout = layout;
            this.fields = fields;
            this.names = new String[fields.length];
            for (int i = 0; i < fields.length; i++) {
                names[i] = layout.fields().get(i).name();
            }
        }

        /** The STRUCT's field names, in order. */
        String[] names() {
            return names;
        }

        /** The codecs of the STRUCT's fields, in order. */
        Codec[] fields() {
            return fields;
        }

        private static Codec[] describe(ColumnarDescription<?> layout, Set<Class<?>> visiting) {
            Codec[] out = new Codec[layout.fields().size()];
            for (int i = 0; i < out.length; i++) {
                ColumnarDescription.Field<?> f = layout.fields().get(i);
                try {
                    out[i] = of(f.type(), true, visiting);
                } catch (Unsupported u) {
                    throw new Unsupported("component '" + f.name() + "' of record " + layout.objectType().getName()
                            + " (" + f.type().getTypeName() + "): " + u.getMessage());
                }
            }
            return out;
        }

        private static String structType(ColumnarDescription<?> layout, Codec[] fields) {
            StringBuilder sb = new StringBuilder("STRUCT(");
            for (int i = 0; i < fields.length; i++) {
                sb.append(i == 0 ? "" : ", ").append('"').append(layout.fields().get(i).name()).append("\" ")
                        .append(fields[i].sqlType());
            }
            return sb.append(')').toString();
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        Object toSql(Object v) {
            // LinkedHashMap, not Map.of: the Appender takes STRUCT values inside a LIST only as LinkedHashMaps.
            Map<String, Object> out = new LinkedHashMap<>();
            for (int i = 0; i < fields.length; i++) {
                Object value = ((ColumnarDescription.Field) layout.fields().get(i)).get(v);
                out.put(names[i], value == null ? null : fields[i].toSql(value));
            }
            return out;
        }

        @Override
        Object fromSql(Object s) {
            Map<?, ?> map = (Map<?, ?>) s;
            Object[] values = new Object[fields.length];
            for (int i = 0; i < fields.length; i++) {
                Object v = map.get(names[i]);
                values[i] = v == null ? null : fields[i].fromSql(v);
            }
            for (int j = 0; j < fields.length; j++) {
                if (values[j] == null && fields[j].primitive()) {
                    throw new IllegalStateException("Component '" + names[j] + "' of " + javaType() + " is NULL "
                            + "in the database but is a primitive " + fields[j].javaType());
                }
            }
            return layout.newObject(values);
        }

        @Override
        void write(Object value, RowWriter row) throws SQLException {
            row.putNested(sqlType(), toSql(value));
        }
    }
}
