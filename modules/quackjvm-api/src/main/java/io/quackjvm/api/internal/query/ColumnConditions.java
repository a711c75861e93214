package io.quackjvm.api.internal.query;

import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.simple.Between;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.GreaterThan;
import com.googlecode.cqengine.query.simple.Has;
import com.googlecode.cqengine.query.simple.In;
import com.googlecode.cqengine.query.simple.LessThan;
import com.googlecode.cqengine.query.simple.StringContains;
import com.googlecode.cqengine.query.simple.StringEndsWith;
import com.googlecode.cqengine.query.simple.StringStartsWith;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Conditions on a column a layout declares for an attribute in DuckDB's own type ({@link Visible.Kind#NATIVE},
 * {@link Visible.Kind#SIGNED_ZERO}, {@link Visible.Kind#UTF8}), each with Java's semantics or {@code null} when
 * the query has none in SQL (it is then answered in Java). A {@code has} is {@code TRUE}: the caller turns it into
 * {@code IS NOT NULL}. Stateless.
 */
public final class ColumnConditions {

    private ColumnConditions() {
    }

    // ---------------------------------------------------------------- NATIVE

    /**
     * A condition on a column whose DuckDB comparison is Java's: values are bound as they are, except enums,
     * compared by their position in the ENUM type, which is their ordinal.
     */
    static SqlPredicate natural(Query<?> query, Class<?> type, String column) {
        String c = type.isEnum() ? "enum_code(" + column + ")" : column;
        if (query instanceof Has) {
            return new SqlPredicate("TRUE", List.of());
        }
        if (query instanceof Equal<?, ?> q) {
            Object v = bind(type, q.getValue());
            return v == null ? null : new SqlPredicate(c + " = ?", List.of(v));
        }
        if (query instanceof In<?, ?> q) {
            StringJoiner marks = new StringJoiner(", ", c + " IN (", ")");
            List<Object> params = new ArrayList<>();
            for (Object value : q.getValues()) {
                Object v = bind(type, value);
                if (v == null) {
                    return null;
                }
                marks.add("?");
                params.add(v);
            }
            return params.isEmpty() ? new SqlPredicate("FALSE", List.of()) : new SqlPredicate(marks.toString(), params);
        }
        if (query instanceof LessThan<?, ?> q) {
            return compare(c, q.isValueInclusive() ? "<=" : "<", bind(type, q.getValue()));
        }
        if (query instanceof GreaterThan<?, ?> q) {
            return compare(c, q.isValueInclusive() ? ">=" : ">", bind(type, q.getValue()));
        }
        if (query instanceof Between<?, ?> q) {
            return both(compare(c, q.isLowerInclusive() ? ">=" : ">", bind(type, q.getLowerValue())),
                    compare(c, q.isUpperInclusive() ? "<=" : "<", bind(type, q.getUpperValue())));
        }
        return null;
    }

    /** The parameter for {@code value}, or {@code null} when it is not of the attribute's type. */
    private static Object bind(Class<?> type, Object value) {
        if (!type.isInstance(value)) {
            return null;
        }
        return value instanceof Enum<?> e ? e.ordinal() : value;
    }

    private static SqlPredicate compare(String column, String operator, Object bound) {
        return bound == null ? null : new SqlPredicate(column + " " + operator + " ?", List.of(bound));
    }

    private static SqlPredicate both(SqlPredicate lo, SqlPredicate hi) {
        if (lo == null || hi == null) {
            return null;
        }
        List<Object> params = new ArrayList<>(lo.params());
        params.addAll(hi.params());
        return new SqlPredicate(lo.sql() + " AND " + hi.sql(), params);
    }

    // ---------------------------------------------------------------- SIGNED_ZERO

    /**
     * A condition with Java's semantics on a {@code DOUBLE} or {@code FLOAT} column, for equality, {@code in},
     * ranges and {@code has}. Only zeros need care: Java orders -0.0 below 0.0 and tells them apart, DuckDB does
     * not, so a bound of zero adds a test of the sign of {@code exact}, the value with the sign of its zero as the
     * layout restores it. NaN is the largest value and equal to itself in both.
     */
    static SqlPredicate signedZero(Query<?> query, Class<?> type, String column, String exact) {
        Zero z = new Zero(column, exact);
        if (query instanceof Has) {
            return new SqlPredicate("TRUE", List.of());
        }
        if (query instanceof Equal<?, ?> q) {
            return equal(z, type, q.getValue());
        }
        if (query instanceof In<?, ?> q) {
            StringBuilder sql = new StringBuilder("(FALSE");
            List<Object> params = new ArrayList<>();
            for (Object v : q.getValues()) {
                SqlPredicate p = equal(z, type, v);
                if (p == null) {
                    return null;
                }
                sql.append(" OR ").append(p.sql());
                params.addAll(p.params());
            }
            return new SqlPredicate(sql.append(')').toString(), params);
        }
        if (query instanceof LessThan<?, ?> q) {
            return bound(z, type, q.getValue(), q.isValueInclusive(), false);
        }
        if (query instanceof GreaterThan<?, ?> q) {
            return bound(z, type, q.getValue(), q.isValueInclusive(), true);
        }
        if (query instanceof Between<?, ?> q) {
            return both(bound(z, type, q.getLowerValue(), q.isLowerInclusive(), true),
                    bound(z, type, q.getUpperValue(), q.isUpperInclusive(), false));
        }
        return null;
    }

    /**
     * A floating-point value as a STRUCT of the value and whether it is +0.0 ({@code exact}: the value with the sign
     * of its zero), so that equality, {@code DISTINCT}, {@code GROUP BY} and order tell -0.0 from 0.0 and put -0.0
     * first, as {@code Double.compare} does (DuckDB's DOUBLE sees them as equal; NaN is the largest value in both).
     * NULL stays NULL: a struct of NULL fields would equal another and meet it in a join.
     */
    public static String signedZero(String value, String exact) {
        return "(CASE WHEN " + value + " IS NULL THEN NULL ELSE struct_pack(v := " + value + ", p := (" + value
                + " = 0 AND NOT signbit(" + exact + "))) END)";
    }

    /** {@code column} equals {@code value} as {@code Double.equals} / {@code Float.equals} say. */
    private static SqlPredicate equal(Zero column, Class<?> type, Object value) {
        if (!type.isInstance(value)) {
            return null;
        }
        double d = ((Number) value).doubleValue();
        if (Double.isNaN(d)) {
            return new SqlPredicate("isnan(" + column.column() + ")", List.of());
        }
        if (d == 0.0) {
            return new SqlPredicate("(" + column.column() + " = 0 AND " + (negative(d) ? "" : "NOT ")
                    + column.negative() + ")", List.of());
        }
        return new SqlPredicate(column.column() + " = ?", List.of(value));
    }

    /**
     * {@code column} above ({@code lower}) or below {@code value}, inclusive or not, in Java's {@code compareTo}
     * order: DuckDB's comparison already puts NaN last; only a zero bound differs, where -0.0 < 0.0 in Java.
     */
    private static SqlPredicate bound(Zero column, Class<?> type, Object value, boolean inclusive, boolean lower) {
        if (!type.isInstance(value)) {
            return null;
        }
        double d = ((Number) value).doubleValue();
        String op = (lower ? ">" : "<") + (inclusive ? "=" : "");
        if (d != 0.0) {
            return new SqlPredicate(column.column() + " " + op + " ?", List.of(value));
        }
        // A zero bound: DuckDB sees both zeros as equal to it; Java keeps exactly one of them, both, or neither.
        boolean negative = negative(d);
        boolean keepsNegativeZero = lower ? (negative && inclusive) : (inclusive || !negative);
        boolean keepsPositiveZero = lower ? (inclusive || negative) : (!negative && inclusive);
        String strict = column.column() + " " + (lower ? ">" : "<") + " 0";
        if (keepsNegativeZero && keepsPositiveZero) {
            return new SqlPredicate(column.column() + " " + (lower ? ">=" : "<=") + " 0", List.of());
        }
        if (!keepsNegativeZero && !keepsPositiveZero) {
            return new SqlPredicate(strict, List.of());
        }
        return new SqlPredicate("(" + strict + " OR (" + column.column() + " = 0 AND "
                + (keepsNegativeZero ? "" : "NOT ") + column.negative() + "))", List.of());
    }

    /** A DOUBLE or FLOAT column: {@code column} its quoted name, {@code exact} the value with its zero's sign. */
    private record Zero(String column, String exact) {
        /** TRUE when the value is negative (for a zero: -0.0). */
        String negative() {
            return "signbit(" + exact + ")";
        }
    }

    private static boolean negative(double zero) {
        return Double.doubleToRawLongBits(zero) < 0;
    }

    // ---------------------------------------------------------------- UTF8

    /**
     * Conditions on a VARCHAR column of valid UTF-16 strings that are Java's String methods: equality and
     * code-point prefixes, suffixes and infixes are the UTF-16 ones. A query value holding a surrogate is left to
     * Java, since the driver could not bind it exactly.
     */
    static SqlPredicate string(Query<?> query, String column) {
        if (query instanceof Has) {
            return new SqlPredicate("TRUE", List.of());
        }
        if (query instanceof Equal<?, ?> q) {
            return plain(q.getValue()) ? new SqlPredicate(column + " = ?", List.of(q.getValue())) : null;
        }
        if (query instanceof In<?, ?> q) {
            StringJoiner marks = new StringJoiner(", ", column + " IN (", ")");
            List<Object> params = new ArrayList<>();
            for (Object v : q.getValues()) {
                if (!plain(v)) {
                    return null;
                }
                marks.add("?");
                params.add(v);
            }
            return params.isEmpty() ? new SqlPredicate("FALSE", List.of()) : new SqlPredicate(marks.toString(), params);
        }
        if (query instanceof StringStartsWith<?, ?> q && plain(q.getValue())) {
            return new SqlPredicate("starts_with(" + column + ", ?)", List.of(q.getValue().toString()));
        }
        if (query instanceof StringEndsWith<?, ?> q && plain(q.getValue())) {
            return new SqlPredicate("ends_with(" + column + ", ?)", List.of(q.getValue().toString()));
        }
        if (query instanceof StringContains<?, ?> q && plain(q.getValue())) {
            return new SqlPredicate("contains(" + column + ", ?)", List.of(q.getValue().toString()));
        }
        return null;
    }

    private static boolean plain(Object v) {
        if (!(v instanceof CharSequence s)) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The stored form ({@code ValueType} of {@code String}) of a VARCHAR expression holding a valid string: itself
     * when it has no code point at or above U+E000, else every UTF-16 code unit as one code point (the units of a
     * supplementary character as U+E000..U+E7FF, U+E000..U+FFFF as U+10000..U+11FFF).
     */
    public static String encodedString(String s) {
        return "(CASE WHEN strlen(" + s + ") = length(" + s + ") OR NOT regexp_matches(" + s
                + ", '[\\x{E000}-\\x{10FFFF}]') THEN " + s + " ELSE array_to_string(list_transform(string_split(" + s
                + ", ''), c -> CASE WHEN unicode(c) < 55296 THEN c WHEN unicode(c) < 65536 THEN chr(unicode(c) + 8192) "
                + "ELSE chr(57344 + ((unicode(c) - 65536) >> 10)) || chr(58368 + ((unicode(c) - 65536) & 1023)) END), "
                + "'') END)";
    }
}
