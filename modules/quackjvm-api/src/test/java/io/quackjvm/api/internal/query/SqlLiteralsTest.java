package io.quackjvm.api.internal.query;

import io.quackjvm.api.spi.ValueType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Every literal {@link SqlLiterals} writes is, in real DuckDB, exactly the stored form it stands for: for each
 * value type and adversarial values (extremes, -0.0, NaN, quotes, surrogates, HUGEINT beyond a long), a column
 * holding every stored form (bound as parameters, as the library writes them) is compared with each literal, and
 * DuckDB's counts of smaller and equal rows must be Java's {@code compareTo} and {@code equals}.
 */
class SqlLiteralsTest {

    enum Colour { RED, GREEN, BLUE }

    private static Connection c;

    @BeforeAll
    static void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterAll
    static void close() throws SQLException {
        c.close();
    }

    @Test
    void integers() throws SQLException {
        check(Integer.class, Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE);
        check(Long.class, Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, 1L, Long.MAX_VALUE);
        check(Short.class, Short.MIN_VALUE, (short) -1, (short) 0, Short.MAX_VALUE);
        check(Byte.class, Byte.MIN_VALUE, (byte) -1, (byte) 0, Byte.MAX_VALUE);
        check(Boolean.class, false, true);
        check(BigInteger.class, BigInteger.ZERO, BigInteger.ONE.negate(), BigInteger.TEN.pow(40),
                BigInteger.TEN.pow(40).negate(), BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE));
        check(Colour.class, Colour.RED, Colour.GREEN, Colour.BLUE);
    }

    @Test
    void floatingPoint() throws SQLException {
        check(Double.class, -0.0, 0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 1.5, -1.5, 100.25);
        check(Float.class, -0.0f, 0.0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, 2.5f);
    }

    @Test
    void stringsQuotesAndSurrogates() throws SQLException {
        check(String.class, "", "a", "'", "''", "a'b", "?", "? OR 1=1", "--", "\\", "\\'", "'; DROP TABLE t; --",
                "\uD83D\uDE00", "\uE000", "\uFFFD", "\uD800", "\uDC00x", "é", "Z", "ab", "a\nb", "\t", "$1", "${x}");
        check(Character.class, 'a', '\'', '\uD800', '\uDFFF', '\uE000', '\uFFFF', '?');
        check(BigDecimal.class, new BigDecimal("1"), new BigDecimal("1.0"), new BigDecimal("1.00"),
                new BigDecimal("-1.5"), new BigDecimal("-1.50"), BigDecimal.ZERO, new BigDecimal("0.00"),
                new BigDecimal("99999999999999999999999999999999999999999.5"), new BigDecimal("1E-30"));
    }

    @Test
    void timesAndUuids() throws SQLException {
        check(Date.class, new Date(Long.MIN_VALUE), new Date(-1), new Date(0), new Date(Long.MAX_VALUE));
        check(LocalDate.class, LocalDate.MIN, LocalDate.of(1970, 1, 1), LocalDate.MAX);
        check(LocalTime.class, LocalTime.MIN, LocalTime.NOON, LocalTime.MAX);
        check(LocalDateTime.class, LocalDateTime.MIN, LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
                LocalDateTime.MAX);
        check(Instant.class, Instant.MIN, Instant.ofEpochSecond(-1, 1), Instant.EPOCH, Instant.MAX);
        check(UUID.class, new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, Long.MAX_VALUE),
                new UUID(Long.MAX_VALUE, Long.MIN_VALUE), UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
    }

    /** A NUL char cannot travel inside SQL text: refused, so the caller binds a parameter. */
    @Test
    void refusesWhatItCannotWriteExactly() {
        assertNull(SqlLiterals.literal("a\u0000b"));
        assertNull(SqlLiterals.literal("\uD800"), "an unpaired surrogate (never a stored form) is refused");
        assertNull(SqlLiterals.literal(1.5d), "a double is never a stored form");
        assertNull(SqlLiterals.literal(new byte[]{1}));
        assertNull(SqlLiterals.literal(BigInteger.TWO.pow(127)), "beyond HUGEINT");
    }

    /** Bare integer key literals in an IN list on a key column of each integer type find exactly the stored keys. */
    @Test
    void integerKeyLiteralsFindExactlyTheirKeys() throws SQLException {
        Object[][] cases = {
                {"TINYINT", new Object[]{Byte.MIN_VALUE, (byte) -1, (byte) 0, Byte.MAX_VALUE}},
                {"SMALLINT", new Object[]{Short.MIN_VALUE, (short) -1, (short) 0, Short.MAX_VALUE}},
                {"INTEGER", new Object[]{Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE}},
                {"BIGINT", new Object[]{Long.MIN_VALUE, (long) Integer.MIN_VALUE - 1, -1L, 0L, 1L,
                        (long) Integer.MAX_VALUE + 1, Long.MAX_VALUE}},
        };
        for (Object[] kase : cases) {
            Object[] keys = (Object[]) kase[1];
            try (Statement s = c.createStatement()) {
                s.execute("CREATE OR REPLACE TABLE keyed (k " + kase[0] + " PRIMARY KEY)");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO keyed VALUES (?)")) {
                for (Object k : keys) {
                    ps.setObject(1, k);
                    ps.execute();
                }
            }
            for (int i = 0; i < keys.length; i++) {
                // each key alone, and with its neighbours: found once, nothing else
                String in = SqlLiterals.literal(keys[i]) + (i + 1 < keys.length ? ", " + SqlLiterals.literal(keys[i + 1]) : "");
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT k FROM keyed WHERE k IN (" + in + ") ORDER BY k")) {
                    assertTrue(rs.next(), kase[0] + " " + keys[i]);
                    assertEquals(keys[i], rs.getObject(1), kase[0] + " " + in);
                    if (i + 1 < keys.length) {
                        assertTrue(rs.next());
                        assertEquals(keys[i + 1], rs.getObject(1), kase[0] + " " + in);
                    }
                    assertFalse(rs.next(), kase[0] + " " + in);
                }
            }
        }
    }

    /** A statement carrying literals is marked one-shot, and only such a statement. */
    @Test
    void marksOneShotStatements() {
        assertTrue(SqlLiterals.oneShot("SELECT count(*) FROM (" + SqlLiterals.MARK + "SELECT 7)"));
        assertFalse(SqlLiterals.oneShot("SELECT _key FROM t WHERE value = ?"));
    }

    /** A one-shot statement is closed before it goes back to its connection, so it never enters the cache. */
    @Test
    void releaseClosesOnlyOneShotStatements() throws SQLException {
        List<PreparedStatement> recycled = new ArrayList<>();
        io.quackjvm.api.spi.PooledConnection pooled = new io.quackjvm.api.spi.PooledConnection() {
            @Override public Connection connection() { return c; }
            @Override public PreparedStatement prepare(String sql) throws SQLException { return c.prepareStatement(sql); }
            @Override public void recycle(PreparedStatement statement) { recycled.add(statement); }
            @Override public void close() { }
        };
        String once = SqlLiterals.MARK + "SELECT " + SqlLiterals.literal(7) + " AS v";
        PreparedStatement literal = pooled.prepare(once);
        PreparedStatement kept = pooled.prepare("SELECT ? AS v");
        SqlLiterals.release(pooled, literal, once);
        SqlLiterals.release(pooled, kept, "SELECT ? AS v");
        assertEquals(List.of(literal, kept), recycled);
        assertTrue(literal.isClosed(), "one-shot statement closed");
        assertFalse(kept.isClosed(), "cached statement left open");
        kept.close();
    }

    /**
     * Stores every value's stored form (as the library binds it), then compares the column with each value's
     * literal in SQL: DuckDB must count as smaller, equal and within the value's range exactly the values Java does.
     */
    @SafeVarargs
    @SuppressWarnings("unchecked")
    private static <V> void check(Class<V> type, V... values) throws SQLException {
        ValueType<V> vt = ValueType.of(type);
        List<V> distinct = new ArrayList<>(new LinkedHashSet<>(List.of(values)));
        try (Statement s = c.createStatement()) {
            s.execute("CREATE OR REPLACE TABLE t (v " + vt.sqlType() + ")");
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?)")) {
            for (V v : distinct) {
                p.setObject(1, vt.encode(v));
                p.executeUpdate();
            }
        }
        for (V a : distinct) {
            String lit = SqlLiterals.literal(vt.encode(a));
            assertNotNull(lit, () -> "no literal for " + type.getSimpleName() + " " + a);
            long smaller = 0;
            long equal = 0;
            long same = 0;
            for (V b : distinct) {
                smaller += ((Comparable<Object>) b).compareTo(a) < 0 && !b.equals(a) ? 1 : 0;
                equal += b.equals(a) ? 1 : 0;
                same += ((Comparable<Object>) b).compareTo(a) == 0 ? 1 : 0;
            }
            String what = type.getSimpleName() + " " + a + " as " + lit;
            if (type != BigDecimal.class) {
                assertEquals(smaller, count("v < " + lit), what + ": smaller");
            }
            assertEquals(equal, count("v = " + lit), what + ": equal");
            assertEquals(same, count("v >= " + SqlLiterals.literal(vt.rangeStart(a)) + " AND v <= "
                    + SqlLiterals.literal(vt.rangeEnd(a))), what + ": compares equal");
        }
    }

    private static long count(String where) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t WHERE " + where)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
