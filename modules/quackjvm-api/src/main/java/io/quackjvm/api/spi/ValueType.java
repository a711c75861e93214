package io.quackjvm.api.spi;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * How an attribute value of one Java type is stored in a DuckDB column so that DuckDB's {@code =}, {@code <},
 * {@code ORDER BY} and {@code DISTINCT} give exactly Java's {@code equals} and {@code compareTo}.
 *
 * <p>The rule every value type keeps: for values {@code a} and {@code b} of the type, {@code a.equals(b)} exactly
 * when {@code encode(a)} and {@code encode(b)} are equal in DuckDB, and {@code a.compareTo(b) < 0} implies
 * {@code encode(a) < encode(b)}. Values that compare equal but are not {@code equals} (only {@link BigDecimal}:
 * {@code 2.0} and {@code 2.00}) encode to different values that sort together, between {@link #rangeStart} and
 * {@link #rangeEnd}; range predicates use those two bounds.
 *
 * <p>Where DuckDB's own type would not keep the rule, the stored form is an order-preserving encoding:
 * <ul>
 *   <li>{@code String} and {@code Character} are {@code VARCHAR}. Java orders strings by UTF-16 code unit,
 *   DuckDB by UTF-8 byte, and the two disagree between supplementary characters and U+E000..U+FFFF. A string with
 *   no char at or above U+D800 is stored unchanged; in any other string every UTF-16 code unit is stored as one
 *   code point (U+D800..U+DFFF as U+E000..U+E7FF, U+E000..U+FFFF as U+10000..U+11FFF), which keeps the
 *   code-unit order, and because one code unit is one code point, Java's {@code startsWith}, {@code endsWith}
 *   and {@code contains} are DuckDB's {@code starts_with}, {@code ends_with} and {@code contains} on the stored
 *   form ({@link #isString()}).</li>
 *   <li>{@code Double} and {@code Float} are their bit patterns ({@code BIGINT}, {@code INTEGER}) with the sign
 *   folded so that signed integer order is {@code Double.compare} order: DuckDB's {@code DOUBLE} treats
 *   {@code -0.0} as equal to {@code 0.0} (Java does not) and its JDBC driver reads {@code -0.0} back as
 *   {@code 0.0}. NaN is one value, above positive infinity, as in Java.</li>
 *   <li>{@code BigDecimal} and {@code BigInteger} are a {@code VARCHAR} that sorts numerically (sign, exponent,
 *   digits) followed by the scale: DuckDB's {@code DECIMAL} is limited to 38 digits and a fixed scale, and
 *   {@code BigDecimal.equals} distinguishes {@code 2.0} from {@code 2.00}.</li>
 *   <li>enums are their ordinal ({@code INTEGER}), which is their {@code compareTo} order; the
 *   {@link #signature()} lists the constants, so a reordered enum is noticed when a file is reopened.</li>
 *   <li>{@code java.util.Date} is epoch milliseconds, {@code LocalDate} the epoch day and {@code LocalTime} the
 *   nanosecond of the day ({@code BIGINT}); {@code Instant} and {@code LocalDateTime} are nanoseconds since the
 *   epoch (UTC for {@code LocalDateTime}) as a {@code HUGEINT}, which holds their whole range.</li>
 *   <li>{@code UUID} is a DuckDB {@code UUID} with the top bit of each half flipped: Java's
 *   {@code UUID.compareTo} compares the two halves as signed numbers, DuckDB as unsigned ones. The stored text
 *   therefore differs from {@code UUID.toString()} in its first and its seventeenth hex digit.</li>
 *   <li>{@code Integer}, {@code Long}, {@code Short}, {@code Byte} and {@code Boolean} are DuckDB's
 *   {@code INTEGER}, {@code BIGINT}, {@code SMALLINT}, {@code TINYINT} and {@code BOOLEAN}.</li>
 * </ul>
 * A layout or index that stores values through this class must also compare through it: bind
 * {@link #encode} (or the range bounds) as parameters, and read values back with {@link #decode}. Immutable
 * and thread-safe.
 *
 * @param <V> the Java type
 */
public abstract class ValueType<V> {

    private final Class<V> javaType;
    private final String sqlType;

    private ValueType(Class<V> javaType, String sqlType) {
        this.javaType = javaType;
        this.sqlType = sqlType;
    }

    /** The Java type. */
    public final Class<V> javaType() {
        return javaType;
    }

    /** The DuckDB column type of the stored form, for example {@code BIGINT}. */
    public final String sqlType() {
        return sqlType;
    }

    /**
     * Identifies the encoding: two stored columns can be compared only when their signatures are equal. It is the
     * SQL type plus, for enums, the constants in order.
     */
    public String signature() {
        return javaType.getName() + ":" + sqlType;
    }

    /** The stored form of {@code value} (never {@code null}): a {@code String}, {@code Long}, {@code Integer}, ... */
    public abstract Object encode(V value);

    /** The Java value of a stored form, as the JDBC driver returns it from {@code getObject}. */
    public abstract V decode(Object stored);

    /** The smallest stored form of any value that compares equal to {@code value}. */
    public Object rangeStart(V value) {
        return encode(value);
    }

    /** The largest stored form of any value that compares equal to {@code value}. */
    public Object rangeEnd(V value) {
        return encode(value);
    }

    /** {@code true} when DuckDB's string functions on stored forms are Java's String methods on values. */
    public boolean isString() {
        return false;
    }

    @Override
    public String toString() {
        return "ValueType{" + signature() + "}";
    }

    private static final Map<Class<?>, ValueType<?>> TYPES = new LinkedHashMap<>();

    static {
        register(new Direct<>(String.class, "VARCHAR") {
            @Override public Object encode(String v) { return encodeString(v); }
            @Override public String decode(Object s) { return decodeString((String) s); }
            @Override public boolean isString() { return true; }
        });
        register(new Direct<>(Character.class, "VARCHAR") {
            @Override public Object encode(Character v) { return encodeString(v.toString()); }
            @Override public Character decode(Object s) { return decodeString((String) s).charAt(0); }
        });
        register(new Direct<>(Integer.class, "INTEGER") {
            @Override public Object encode(Integer v) { return v; }
            @Override public Integer decode(Object s) { return ((Number) s).intValue(); }
        });
        register(new Direct<>(Long.class, "BIGINT") {
            @Override public Object encode(Long v) { return v; }
            @Override public Long decode(Object s) { return ((Number) s).longValue(); }
        });
        register(new Direct<>(Short.class, "SMALLINT") {
            @Override public Object encode(Short v) { return v; }
            @Override public Short decode(Object s) { return ((Number) s).shortValue(); }
        });
        register(new Direct<>(Byte.class, "TINYINT") {
            @Override public Object encode(Byte v) { return v; }
            @Override public Byte decode(Object s) { return ((Number) s).byteValue(); }
        });
        register(new Direct<>(Boolean.class, "BOOLEAN") {
            @Override public Object encode(Boolean v) { return v; }
            @Override public Boolean decode(Object s) { return (Boolean) s; }
        });
        register(new Direct<>(Double.class, "BIGINT") {
            @Override public Object encode(Double v) {
                long bits = Double.doubleToLongBits(v);
                return bits ^ ((bits >> 63) & Long.MAX_VALUE);
            }
            @Override public Double decode(Object s) {
                long bits = ((Number) s).longValue();
                return Double.longBitsToDouble(bits ^ ((bits >> 63) & Long.MAX_VALUE));
            }
        });
        register(new Direct<>(Float.class, "INTEGER") {
            @Override public Object encode(Float v) {
                int bits = Float.floatToIntBits(v);
                return bits ^ ((bits >> 31) & Integer.MAX_VALUE);
            }
            @Override public Float decode(Object s) {
                int bits = ((Number) s).intValue();
                return Float.intBitsToFloat(bits ^ ((bits >> 31) & Integer.MAX_VALUE));
            }
        });
        register(new Direct<>(BigDecimal.class, "VARCHAR") {
            @Override public Object encode(BigDecimal v) { return numeric(v) + "!" + v.scale(); }
            @Override public BigDecimal decode(Object s) { return decodeDecimal((String) s); }
            // '!' separates the numeric part from the scale; '"' is the next character, above every scale.
            @Override public Object rangeStart(BigDecimal v) { return numeric(v) + "!"; }
            @Override public Object rangeEnd(BigDecimal v) { return numeric(v) + "\""; }
        });
        register(new Direct<>(BigInteger.class, "VARCHAR") {
            @Override public Object encode(BigInteger v) { return numeric(new BigDecimal(v)) + "!0"; }
            @Override public BigInteger decode(Object s) { return decodeDecimal((String) s).toBigIntegerExact(); }
        });
        register(new Direct<>(Date.class, "BIGINT") {
            @Override public Object encode(Date v) { return v.getTime(); }
            @Override public Date decode(Object s) { return new Date(((Number) s).longValue()); }
        });
        register(new Direct<>(LocalDate.class, "BIGINT") {
            @Override public Object encode(LocalDate v) { return v.toEpochDay(); }
            @Override public LocalDate decode(Object s) { return LocalDate.ofEpochDay(((Number) s).longValue()); }
        });
        register(new Direct<>(LocalTime.class, "BIGINT") {
            @Override public Object encode(LocalTime v) { return v.toNanoOfDay(); }
            @Override public LocalTime decode(Object s) { return LocalTime.ofNanoOfDay(((Number) s).longValue()); }
        });
        register(new Direct<>(LocalDateTime.class, "HUGEINT") {
            @Override public Object encode(LocalDateTime v) { return nanos(v.toEpochSecond(ZoneOffset.UTC), v.getNano()); }
            @Override public LocalDateTime decode(Object s) {
                long[] t = secondsAndNanos(s);
                return LocalDateTime.ofEpochSecond(t[0], (int) t[1], ZoneOffset.UTC);
            }
        });
        register(new Direct<>(Instant.class, "HUGEINT") {
            @Override public Object encode(Instant v) { return nanos(v.getEpochSecond(), v.getNano()); }
            @Override public Instant decode(Object s) {
                long[] t = secondsAndNanos(s);
                return Instant.ofEpochSecond(t[0], t[1]);
            }
        });
        register(new Direct<>(UUID.class, "UUID") {
            @Override public Object encode(UUID v) {
                return new UUID(v.getMostSignificantBits() ^ Long.MIN_VALUE, v.getLeastSignificantBits() ^ Long.MIN_VALUE);
            }
            @Override public UUID decode(Object s) {
                // The JDBC driver returns a UUID; DuckDB's Arrow export its text form.
                UUID u = s instanceof UUID uuid ? uuid : UUID.fromString(s.toString());
                return new UUID(u.getMostSignificantBits() ^ Long.MIN_VALUE, u.getLeastSignificantBits() ^ Long.MIN_VALUE);
            }
        });
    }

    private static void register(ValueType<?> type) {
        TYPES.put(type.javaType(), type);
    }

    /**
     * The value type for a Java type.
     *
     * @throws IllegalArgumentException naming the type and listing the supported ones when there is none
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <V> ValueType<V> of(Class<V> type) {
        Objects.requireNonNull(type, "type");
        ValueType<?> found = TYPES.get(type);
        if (found != null) {
            return (ValueType<V>) found;
        }
        if (type.isEnum()) {
            return (ValueType<V>) new EnumType(type);
        }
        throw new IllegalArgumentException("Values of type " + type.getName() + " cannot be stored in DuckDB with "
                + "Java's ordering; supported types: " + supportedTypes());
    }

    /** Whether {@link #of} accepts {@code type}. */
    public static boolean isSupported(Class<?> type) {
        return type != null && (TYPES.containsKey(type) || type.isEnum());
    }

    /** The simple names of the supported types, for messages. */
    public static String supportedTypes() {
        StringBuilder sb = new StringBuilder();
        for (Class<?> c : TYPES.keySet()) {
            sb.append(c.getSimpleName()).append(", ");
        }
        return sb.append("and any enum").toString();
    }

    private abstract static class Direct<V> extends ValueType<V> {
        Direct(Class<V> javaType, String sqlType) {
            super(javaType, sqlType);
        }
    }

    private static final class EnumType<E extends Enum<E>> extends ValueType<E> {
        private final E[] constants;

        EnumType(Class<E> type) {
            super(type, "INTEGER");
            this.constants = type.getEnumConstants();
        }

        @Override public Object encode(E v) { return v.ordinal(); }
        @Override public E decode(Object s) { return constants[((Number) s).intValue()]; }

        @Override
        public String signature() {
            StringBuilder sb = new StringBuilder(super.signature()).append('(');
            for (int i = 0; i < constants.length; i++) {
                sb.append(i == 0 ? "" : ",").append(constants[i].name());
            }
            return sb.append(')').toString();
        }
    }

    // ------------------------------------------------------------------ strings

    /** The stored form of a string; see the class comment. */
    public static String encodeString(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) < 0xD800) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0xD800) {
                sb.append(c);
            } else if (c < 0xE000) {
                sb.append((char) (c + 0x800));
            } else {
                sb.appendCodePoint(c + 0x2000);
            }
        }
        return sb.toString();
    }

    /** The string whose stored form is {@code s}. */
    public static String decodeString(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) < 0xD800) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length()).append(s, 0, i);
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp < 0xD800) {
                sb.append((char) cp);
            } else if (cp < 0x10000) {
                sb.append((char) (cp - 0x800));
            } else {
                sb.append((char) (cp - 0x2000));
            }
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ instants

    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

    /** Nanoseconds since the epoch, for a second and a nano-of-second in 0..999,999,999. */
    private static BigInteger nanos(long epochSecond, int nano) {
        return BigInteger.valueOf(epochSecond).multiply(NANOS_PER_SECOND).add(BigInteger.valueOf(nano));
    }

    /** The inverse of {@link #nanos}: floor division, so that the nano-of-second is never negative. */
    private static long[] secondsAndNanos(Object stored) {
        BigInteger n = stored instanceof BigInteger b ? b : new BigInteger(stored.toString());
        BigInteger[] qr = n.divideAndRemainder(NANOS_PER_SECOND);
        if (qr[1].signum() < 0) {
            return new long[]{qr[0].longValueExact() - 1, qr[1].longValue() + 1_000_000_000L};
        }
        return new long[]{qr[0].longValueExact(), qr[1].longValue()};
    }

    // ------------------------------------------------------------------ decimals

    private static final long EXPONENT_OFFSET = 1L << 33;

    /**
     * A string whose order is the numeric order: a sign class (A negative, B zero, C positive), the decimal
     * exponent offset to a fixed width, and the digits without trailing zeros; negative numbers have both
     * complemented and end in '~', so that a longer digit string of a negative number sorts first.
     */
    static String numeric(BigDecimal v) {
        int sign = v.signum();
        if (sign == 0) {
            return "B";
        }
        BigDecimal stripped = v.stripTrailingZeros();
        String digits = stripped.unscaledValue().abs().toString();
        long exponent = (long) digits.length() - stripped.scale();
        String e = String.format("%011d", exponent + EXPONENT_OFFSET);
        return sign > 0 ? "C" + e + digits : "A" + complement(e) + complement(digits) + "~";
    }

    private static String complement(String digits) {
        char[] out = new char[digits.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (char) ('9' - digits.charAt(i) + '0');
        }
        return new String(out);
    }

    static BigDecimal decodeDecimal(String s) {
        int bang = s.lastIndexOf('!');
        int scale = Integer.parseInt(s.substring(bang + 1));
        String n = s.substring(0, bang);
        if (n.equals("B")) {
            return BigDecimal.ZERO.setScale(scale);
        }
        boolean negative = n.charAt(0) == 'A';
        String e = n.substring(1, 12);
        String digits = negative ? n.substring(12, n.length() - 1) : n.substring(12);
        if (negative) {
            e = complement(e);
            digits = complement(digits);
        }
        long exponent = Long.parseLong(e) - EXPONENT_OFFSET;
        BigDecimal magnitude = new BigDecimal(new BigInteger(digits), (int) (digits.length() - exponent));
        return (negative ? magnitude.negate() : magnitude).setScale(scale);
    }
}
