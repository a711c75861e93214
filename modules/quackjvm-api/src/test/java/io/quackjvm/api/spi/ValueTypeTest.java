package io.quackjvm.api.spi;

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
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ValueType rule, checked in DuckDB itself: store encoded values, let DuckDB sort them, and compare with
 * Java's sort; round trips give back equal values.
 */
class ValueTypeTest {

    enum Size { SMALL, MEDIUM, LARGE }

    private static <V extends Comparable<? super V>> void duckDbSortsAsJavaDoes(Class<V> type, List<V> values)
            throws SQLException {
        ValueType<V> vt = ValueType.of(type);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (i INTEGER, v " + vt.sqlType() + ")");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                for (int i = 0; i < values.size(); i++) {
                    p.setInt(1, i);
                    p.setObject(2, vt.encode(values.get(i)));
                    p.executeUpdate();
                }
            }
            List<V> fromDuckDb = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT v FROM t ORDER BY v, i")) {
                while (rs.next()) {
                    fromDuckDb.add(vt.decode(rs.getObject(1)));
                }
            }
            List<V> javaSorted = new ArrayList<>(values);
            javaSorted.sort(Comparator.<V>naturalOrder());
            assertEquals(javaSorted.size(), fromDuckDb.size());
            for (int i = 0; i < javaSorted.size(); i++) {
                assertEquals(0, javaSorted.get(i).compareTo(fromDuckDb.get(i)),
                        "position " + i + ": " + javaSorted + " vs " + fromDuckDb);
            }
            for (V v : values) {
                assertEquals(v, vt.decode(vt.encode(v)), "round trip of " + v);
            }
        }
    }

    @Test
    void stringsSortByUtf16CodeUnitsNotUtf8Bytes() throws SQLException {
        String[] pieces = {"", "a", "\uE000", "\uFFFF", "\uD83D\uDE00", "\uD7FF", "\uD800", "é", "Z"};
        Random r = new Random(5);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            StringBuilder sb = new StringBuilder();
            for (int j = r.nextInt(4); j > 0; j--) {
                sb.append(pieces[r.nextInt(pieces.length)]);
            }
            values.add(sb.toString());
        }
        duckDbSortsAsJavaDoes(String.class, values);
        assertEquals("plain ascii", ValueType.encodeString("plain ascii"), "strings below U+D800 are stored as is");
    }

    @Test
    void doublesAndFloatsSortAsCompareToWithNaNAndNegativeZero() throws SQLException {
        List<Double> doubles = List.of(Double.NaN, -0.0, 0.0, 1.0, -1.0, Double.MIN_VALUE, -Double.MIN_VALUE,
                Double.MAX_VALUE, -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 2.5);
        duckDbSortsAsJavaDoes(Double.class, doubles);
        List<Float> floats = new ArrayList<>();
        doubles.forEach(d -> floats.add(d.floatValue()));
        duckDbSortsAsJavaDoes(Float.class, floats);
        ValueType<Double> vt = ValueType.of(Double.class);
        assertTrue(!vt.encode(-0.0).equals(vt.encode(0.0)), "-0.0 and 0.0 are different values, as in Java");
    }

    @Test
    void decimalsSortNumericallyAndKeepTheirScale() throws SQLException {
        List<BigDecimal> values = new ArrayList<>();
        for (String s : new String[]{"0", "0.00", "1", "1.0", "1.00", "-1", "-1.5", "-1.50", "10", "1E+1", "0.1",
                "-0.01", "123.450", "-123.45", "99999999999999999999999999999999999999999.5", "1E-30", "-2E+40",
                "-0.123", "-0.1234", "0.123", "0.1234"}) {
            values.add(new BigDecimal(s));
        }
        duckDbSortsAsJavaDoes(BigDecimal.class, values);
        ValueType<BigDecimal> vt = ValueType.of(BigDecimal.class);
        assertTrue(!vt.encode(new BigDecimal("2.0")).equals(vt.encode(new BigDecimal("2.00"))), "equals sees scale");
        duckDbSortsAsJavaDoes(BigInteger.class, List.of(BigInteger.TEN, BigInteger.ZERO, BigInteger.valueOf(-7),
                new BigInteger("123456789012345678901234567890"), BigInteger.ONE));
    }

    @Test
    void otherTypesSortAsJavaDoes() throws SQLException {
        duckDbSortsAsJavaDoes(Size.class, List.of(Size.LARGE, Size.SMALL, Size.MEDIUM));
        duckDbSortsAsJavaDoes(Long.class, List.of(Long.MAX_VALUE, Long.MIN_VALUE, 0L, -5L));
        duckDbSortsAsJavaDoes(Integer.class, List.of(3, -3, 0));
        duckDbSortsAsJavaDoes(Short.class, List.of((short) 3, (short) -3));
        duckDbSortsAsJavaDoes(Byte.class, List.of((byte) 3, (byte) -3));
        duckDbSortsAsJavaDoes(Boolean.class, List.of(true, false));
        duckDbSortsAsJavaDoes(Character.class, List.of('\uE000', 'a', '\uD800'));
        duckDbSortsAsJavaDoes(LocalDate.class, List.of(LocalDate.of(2024, 2, 29), LocalDate.of(1969, 1, 1)));
        duckDbSortsAsJavaDoes(java.util.Date.class, List.of(new java.util.Date(5), new java.util.Date(-5)));
        assertTrue(ValueType.of(Size.class).signature().endsWith("(SMALL,MEDIUM,LARGE)"));
    }

    @Test
    void uuidsSortAsUuidCompareToWhichComparesSignedHalves() throws SQLException {
        List<UUID> values = new ArrayList<>(List.of(new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 0),
                new UUID(Long.MAX_VALUE, Long.MAX_VALUE), new UUID(0, Long.MIN_VALUE), new UUID(0, -1),
                new UUID(0, 1), new UUID(-1, 0), new UUID(1, Long.MIN_VALUE)));
        Random r = new Random(11);
        for (int i = 0; i < 100; i++) {
            // every other one shaped like UUID.randomUUID()'s (version 4, IETF variant), from the seeded generator
            values.add(i % 2 == 0 ? new UUID((r.nextLong() & ~0xF000L) | 0x4000L, (r.nextLong() >>> 2) | Long.MIN_VALUE)
                    : new UUID(r.nextLong(), r.nextLong()));
        }
        duckDbSortsAsJavaDoes(UUID.class, values);
        assertTrue(new UUID(-1, 0).compareTo(new UUID(0, 0)) < 0, "the premise: Java's halves are signed");
    }

    @Test
    void instantsAndLocalDateTimesSortToTheNanosecondOverTheirWholeRange() throws SQLException {
        List<Instant> instants = new ArrayList<>(List.of(Instant.MIN, Instant.MAX, Instant.EPOCH,
                Instant.EPOCH.minusNanos(1), Instant.EPOCH.plusNanos(1), Instant.ofEpochSecond(-1, 999_999_999),
                Instant.parse("2024-02-29T12:00:00.123456789Z"), Instant.parse("1600-01-01T00:00:00Z")));
        List<LocalDateTime> times = new ArrayList<>(List.of(LocalDateTime.MIN, LocalDateTime.MAX,
                LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
                LocalDateTime.of(2024, 2, 29, 12, 0, 0, 1)));
        Random r = new Random(13);
        for (int i = 0; i < 50; i++) {
            long second = r.nextLong() % Instant.MAX.getEpochSecond();
            int nano = r.nextInt(1_000_000_000);
            instants.add(Instant.ofEpochSecond(second, nano));
            times.add(LocalDateTime.ofEpochSecond(r.nextLong() % 31_000_000_000_000_000L, nano, ZoneOffset.UTC));
        }
        duckDbSortsAsJavaDoes(Instant.class, instants);
        duckDbSortsAsJavaDoes(LocalDateTime.class, times);
        duckDbSortsAsJavaDoes(LocalTime.class, List.of(LocalTime.MIN, LocalTime.MAX, LocalTime.NOON,
                LocalTime.of(0, 0, 0, 1), LocalTime.of(23, 59, 59)));
    }

    @Test
    void unsupportedTypesAreRefusedListingTheSupportedOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValueType.of(Object.class));
        assertTrue(e.getMessage().contains("java.lang.Object") && e.getMessage().contains("any enum"), e.getMessage());
        assertTrue(e.getMessage().contains("UUID") && e.getMessage().contains("Instant"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ValueType.of(java.time.OffsetDateTime.class));
    }
}
