package io.quackjvm.api.internal.answer;

import io.quackjvm.api.spi.ValueType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Date;
import java.util.List;
import java.util.UUID;

/**
 * SQL expressions that turn a value stored in its {@link ValueType} form back into the natural DuckDB value SQL
 * users expect: a {@code Double} stored as its sign-folded bits becomes a {@code DOUBLE} again, an encoded
 * {@code String} a {@code VARCHAR} equal to the Java string, and so on. The expressions call a few macros that
 * {@link #macros(String)} creates once per database in the schema of the SQL views ({@link SqlViews}).
 *
 * <p>What each type becomes, and what is approximate: {@code BigDecimal} and {@code BigInteger} become a
 * {@code DOUBLE} (correctly rounded from the exact digits); {@code LocalTime}, {@code LocalDateTime} and
 * {@code Instant} are truncated to microseconds ({@code TIME}, {@code TIMESTAMP}, {@code TIMESTAMP WITH TIME ZONE});
 * {@code java.util.Date} is a {@code TIMESTAMP} in UTC; an enum is the {@code VARCHAR} name of its constant; a
 * string holding an unpaired surrogate (which UTF-8 cannot hold) shows it as U+FFFD. Stateless.
 */
public final class SqlDecode {

    private SqlDecode() {
    }

    private static final String MASK63 = "9223372036854775807";

    /**
     * The SQL value (a DOUBLE) of an IEEE 754 number of {@code width} bits with {@code mantissaBits} mantissa bits
     * whose sign-folded bit pattern is the integer {@code b}: NaN and the infinities apart, (mantissa with its hidden
     * bit) * 2^exponent, computed exactly, {@code -0.0} kept.
     */
    private static String ieee(int width, int mantissaBits) {
        String bits = "xor(b, (b >> " + (width - 1) + ") & " + (width == 64 ? MASK63 : "2147483647") + ")";
        int exponentMax = (1 << (width - 1 - mantissaBits)) - 1;
        long hidden = 1L << mantissaBits;
        int shift = (exponentMax >> 1) + mantissaBits; // the bias plus the mantissa's width
        String exponent = "((" + bits + " >> " + mantissaBits + ") & " + exponentMax + ")";
        String mantissa = "(" + bits + " & " + (hidden - 1) + ")";
        return "(CASE WHEN " + exponent + " = " + exponentMax + " THEN "
                + "(CASE WHEN " + mantissa + " <> 0 THEN 'nan'::DOUBLE WHEN b < 0 THEN '-inf'::DOUBLE "
                + "ELSE 'inf'::DOUBLE END) ELSE (CASE WHEN b < 0 THEN -1.0::DOUBLE ELSE 1.0::DOUBLE END) * (CASE WHEN "
                + exponent + " = 0 THEN " + mantissa + "::DOUBLE * pow(2.0::DOUBLE, -" + (shift - 1) + ") ELSE ("
                + mantissa + " + " + hidden + ")::DOUBLE * pow(2.0::DOUBLE, " + exponent + " - " + shift + ") END) END)";
    }

    /**
     * The macros, created in {@code schema} (a quoted, catalog-qualified schema name). {@code qj_double(b)}: the
     * DOUBLE whose sign-folded bit pattern is {@code b}, computed exactly as (mantissa * 2^exponent), NaN and the
     * infinities apart, {@code -0.0} kept. {@code qj_string(s)}: the string whose stored form is {@code s}: a
     * string with no code point at or above U+E000 is its own form (ASCII is checked first, the fast path);
     * otherwise every code point is turned back into its UTF-16 code unit and surrogate pairs are joined.
     */
    static List<String> macros(String schema) {
        String dbl = "CREATE OR REPLACE MACRO " + schema + ".qj_double(b) AS " + ieee(64, 52);
        String flt = "CREATE OR REPLACE MACRO " + schema + ".qj_float(b) AS CAST(" + ieee(32, 23) + " AS FLOAT)";
        // Code points back to UTF-16 code units: U+E000..U+E7FF were surrogates, U+10000..U+11FFF were U+E000..U+FFFF.
        String units = "CREATE OR REPLACE MACRO " + schema + ".qj_units(s) AS list_transform(string_split(s, ''), "
                + "c -> CASE WHEN unicode(c) < 55296 THEN unicode(c) WHEN unicode(c) < 65536 THEN unicode(c) - 2048 "
                + "ELSE unicode(c) - 8192 END)";
        String join = "CREATE OR REPLACE MACRO " + schema + ".qj_join(u) AS array_to_string(list_transform(u, "
                + "(x, i) -> CASE WHEN x BETWEEN 55296 AND 56319 AND coalesce(u[i + 1], 0) BETWEEN 56320 AND 57343 "
                + "THEN chr(65536 + ((x - 55296) << 10) + (u[i + 1] - 56320)) "
                + "WHEN x BETWEEN 56320 AND 57343 AND i > 1 AND coalesce(u[i - 1], 0) BETWEEN 55296 AND 56319 THEN '' "
                + "WHEN x BETWEEN 55296 AND 57343 THEN chr(65533) ELSE chr(x) END), '')";
        // Only a code point at or above U+E000 needs decoding: ASCII is checked first (cheap), then a regex.
        String str = "CREATE OR REPLACE MACRO " + schema + ".qj_string(s) AS (CASE WHEN strlen(s) = length(s) "
                + "OR NOT regexp_matches(s, '[\\x{E000}-\\x{10FFFF}]') THEN s ELSE " + schema + ".qj_join("
                + schema + ".qj_units(s)) END)";
        // BigDecimal/BigInteger: sign class A/B/C, 11 exponent digits, digits (complemented for negatives, then '~'),
        // '!' and the scale. The value is 0.digits * 10^exponent.
        String num = "CREATE OR REPLACE MACRO " + schema + ".qj_decimal(s) AS (CASE WHEN s[1] = 'B' THEN 0.0::DOUBLE "
                + "WHEN s[1] = 'C' THEN CAST(split_part(s[13:], '!', 1) || 'e' || (CAST(s[2:12] AS BIGINT) - 8589934592 "
                + "- length(split_part(s[13:], '!', 1))) AS DOUBLE) "
                + "ELSE -CAST(translate(split_part(split_part(s[13:], '!', 1), '~', 1), '0123456789', '9876543210') "
                + "|| 'e' || (CAST(translate(s[2:12], '0123456789', '9876543210') AS BIGINT) - 8589934592 "
                + "- length(split_part(split_part(s[13:], '!', 1), '~', 1))) AS DOUBLE) END)";
        return List.of(dbl, flt, units, join, str, num);
    }

    /**
     * The natural SQL value of {@code column}, which holds values of {@code type} in their stored form;
     * {@code schema} is where the macros live.
     */
    static String expression(ValueType<?> type, String column, String schema) {
        Class<?> t = type.javaType();
        if (t == String.class || t == Character.class) {
            return schema + ".qj_string(" + column + ")";
        }
        if (t == Double.class) {
            return schema + ".qj_double(" + column + ")";
        }
        if (t == Float.class) {
            return schema + ".qj_float(" + column + ")";
        }
        if (t == BigDecimal.class || t == BigInteger.class) {
            return schema + ".qj_decimal(" + column + ")";
        }
        if (t == Date.class) {
            return "epoch_ms(" + column + ")";
        }
        if (t == LocalDate.class) {
            return "(DATE '1970-01-01' + CAST(" + column + " AS INTEGER))";
        }
        if (t == LocalTime.class) {
            return "(TIME '00:00:00' + to_microseconds(" + column + " // 1000))";
        }
        if (t == LocalDateTime.class || t == Instant.class) {
            String micros = "make_timestamp(CAST((" + column + " - ((" + column + " % 1000) + 1000) % 1000) // 1000 "
                    + "AS BIGINT))";
            return t == Instant.class ? "(" + micros + " AT TIME ZONE 'UTC')" : micros;
        }
        if (t == UUID.class) {
            String text = "CAST(" + column + " AS VARCHAR)";
            return "CAST(translate(" + text + "[1], '0123456789abcdef', '89abcdef01234567') || " + text + "[2:19] || "
                    + "translate(" + text + "[20], '0123456789abcdef', '89abcdef01234567') || " + text
                    + "[21:] AS UUID)";
        }
        if (t.isEnum()) {
            StringBuilder names = new StringBuilder("[");
            Object[] constants = t.getEnumConstants();
            for (int i = 0; i < constants.length; i++) {
                names.append(i == 0 ? "'" : ", '").append(((Enum<?>) constants[i]).name().replace("'", "''"))
                        .append('\'');
            }
            return "(" + names.append("]::VARCHAR[])[").append(column).append(" + 1]");
        }
        // Integer, Long, Short, Byte, Boolean: stored as themselves.
        return column;
    }

    /** Whether the stored form of {@code type} is its natural SQL value (nothing to decode). */
    public static boolean natural(ValueType<?> type) {
        Class<?> t = type.javaType();
        return t == Integer.class || t == Long.class || t == Short.class || t == Byte.class || t == Boolean.class;
    }
}
