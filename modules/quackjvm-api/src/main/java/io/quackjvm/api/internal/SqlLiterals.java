package io.quackjvm.api.internal;

import java.math.BigInteger;
import java.util.List;
import java.util.UUID;

/**
 * Writes stored values ({@link io.quackjvm.api.spi.ValueType} forms) into SQL as literals, exactly and safely,
 * for the statements whose bounds DuckDB prunes better as constants than as parameters (see
 * {@link SqlPredicate#inlined()}). A stored form is already the value DuckDB compares, so writing it exactly keeps
 * Java's ordering: a number is its decimal digits inside a {@code CAST} to the column's integer type, a string is
 * quoted with every quote doubled (DuckDB's standard strings know no other escape), a UUID is its canonical text
 * cast to {@code UUID}. Anything else, and any string that DuckDB's SQL text could not carry unchanged (a NUL
 * char, an unpaired surrogate), is refused with {@code null}, and the caller binds it as a parameter instead.
 * Stateless and thread-safe.
 */
final class SqlLiterals {

    private SqlLiterals() {
    }

    /** The SQL literal of a stored value, or {@code null} when it has none that is certainly exact. */
    static String literal(Object stored) {
        if (stored instanceof Long v) {
            return "CAST(" + v + " AS BIGINT)";
        }
        if (stored instanceof Integer v) {
            return "CAST(" + v + " AS INTEGER)";
        }
        if (stored instanceof Short v) {
            return "CAST(" + v + " AS SMALLINT)";
        }
        if (stored instanceof Byte v) {
            return "CAST(" + v + " AS TINYINT)";
        }
        if (stored instanceof Boolean v) {
            return v ? "TRUE" : "FALSE";
        }
        if (stored instanceof BigInteger v) {
            // HUGEINT stored forms (Instant, LocalDateTime); a string cast, so a large literal never becomes a DOUBLE.
            return v.bitLength() <= 127 ? "CAST('" + v + "' AS HUGEINT)" : null;
        }
        if (stored instanceof UUID v) {
            return "CAST('" + v + "' AS UUID)";
        }
        if (stored instanceof String v) {
            return string(v);
        }
        return null;
    }

    /** {@code 'text'} with quotes doubled, or {@code null} for a NUL char or an unpaired surrogate. */
    static String string(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0) {
                return null;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return null;
                }
                sb.append(c).append(s.charAt(++i));
                continue;
            }
            if (Character.isLowSurrogate(c)) {
                return null;
            }
            sb.append(c == '\'' ? "''" : String.valueOf(c));
        }
        return sb.append('\'').toString();
    }

    /**
     * {@code sql} with each {@code ?} placeholder replaced by the literal of the parameter in its place, or
     * {@code null} when one of them has no exact literal. The placeholders are found in {@code sql} only (a
     * literal written in may itself contain a {@code ?}); the templates come from {@link IndexPredicates}, where a
     * {@code ?} only ever stands for a parameter.
     */
    static String inline(String sql, List<Object> params) {
        StringBuilder sb = new StringBuilder(sql.length() + 32 * params.size());
        int next = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c != '?') {
                sb.append(c);
                continue;
            }
            if (next == params.size()) {
                throw new IllegalStateException("More placeholders than parameters in " + sql);
            }
            String literal = literal(params.get(next++));
            if (literal == null) {
                return null;
            }
            sb.append(literal);
        }
        if (next != params.size()) {
            throw new IllegalStateException("Fewer placeholders than parameters in " + sql);
        }
        return sb.toString();
    }
}
