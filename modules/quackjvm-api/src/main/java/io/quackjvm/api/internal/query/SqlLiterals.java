package io.quackjvm.api.internal.query;

import java.math.BigInteger;
import java.util.UUID;

/**
 * Writes stored values ({@link io.quackjvm.api.spi.ValueType} forms) into SQL as literals, exactly and safely,
 * for the statements DuckDB runs faster with constants than with parameters even though it must plan them anew
 * (the objects of a query's few matches, {@link KeyBatches#forStoredObjectsOnce}). Such a statement carries
 * {@link #MARK} and is closed after use ({@link #release}) instead of kept in the connection's statement cache,
 * where statements that never recur would push out those that do. A stored form is already the value DuckDB
 * compares, so writing it exactly keeps Java's ordering: an integer is its bare decimal digits, a HUGEINT its digits cast to {@code HUGEINT}, a string is
 * quoted with every quote doubled (DuckDB's standard strings know no other escape), a UUID is its canonical text
 * cast to {@code UUID}. Anything else, and any string that DuckDB's SQL text could not carry unchanged (a NUL
 * char, an unpaired surrogate), is refused with {@code null}, and the caller binds it as a parameter instead.
 * Stateless and thread-safe.
 */
public final class SqlLiterals {

    /** The comment that starts a statement written with literals; DuckDB ignores it. */
    public static final String MARK = "/*quackjvm:literals*/ ";

    private SqlLiterals() {
    }

    /** Whether {@code sql} carries values as literals ({@link #MARK}), so that it will not recur. */
    static boolean oneShot(String sql) {
        return sql.contains(MARK);
    }

    /**
     * Gives a statement back to its connection after use: into the statement cache, or closed first when its SQL
     * is {@linkplain #oneShot one-shot} (a closed statement is never cached).
     */
    public static void release(io.quackjvm.api.spi.PooledConnection c, java.sql.PreparedStatement ps, String sql) {
        release(c, ps, oneShot(sql));
    }

    /** As {@link #release(io.quackjvm.api.spi.PooledConnection, java.sql.PreparedStatement, String)}. */
    public static void release(io.quackjvm.api.spi.PooledConnection c, java.sql.PreparedStatement ps, boolean oneShot) {
        if (oneShot) {
            try {
                ps.close();
            } catch (java.sql.SQLException ignored) {
                // a statement that cannot close is dropped by the connection's recycle
            }
        }
        c.recycle(ps);
    }

    /** The SQL literal of a stored value, or {@code null} when it has none that is certainly exact. */
    public static String literal(Object stored) {
        if (stored instanceof Long || stored instanceof Integer || stored instanceof Short || stored instanceof Byte) {
            // Bare digits: DuckDB compares an integer literal in the column's type (one beyond BIGINT widens both
            // sides), and binds it faster than a CAST (1.88 against 2.62 ms to plan and run an IN list of 202 keys,
            // benchmarks/results/archive/query-pushdown/and3-literals.md).
            return stored.toString();
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
}
