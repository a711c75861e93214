package io.quackjvm.reader.arrow;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ArrowSupport;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.spi.RowCursor;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs with --add-opens=java.base/java.nio=org.apache.arrow.memory.core (see the module's pom). */
class ArrowReaderTest {

    private static List<Item> items(int n) {
        List<Item> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add(Item.of(i));
        }
        return out;
    }

    @Test
    void arrowIsAvailableWithTheFlagAndNamesTheModulePathFlag() {
        assertTrue(ArrowSupport.isAvailable(), ArrowSupport.getUnavailableReason());
        assertNull(ArrowSupport.getUnavailableReason());
        assertEquals("--add-opens=java.base/java.nio=org.apache.arrow.memory.core", ArrowSupport.getRequiredJvmFlag());
    }

    @Test
    void largeResultsReadThroughArrowAndPointLookupsThroughJdbc() {
        CountingReader jdbc = CountingReader.of("jdbc");
        CountingReader arrow = CountingReader.of("arrow");
        try (DuckDBPersistence<Item, Long> p = DuckDBPersistence.builder(Item.ID).resultReaders(jdbc, arrow).build()) {
            IndexedCollection<Item> collection = new ConcurrentIndexedCollection<>(p);
            List<Item> all = items(20_000);
            collection.addAll(all);
            int jdbcBefore = jdbc.opened.get();
            try (ResultSet<Item> rs = collection.retrieve(equal(Item.ID, 77L))) {
                assertEquals(Item.of(77), rs.uniqueResult());
            }
            assertEquals(0, arrow.opened.get(), "a primary-key lookup never uses Arrow");
            assertTrue(jdbc.opened.get() > jdbcBefore);
            Set<Item> read = new HashSet<>();
            try (ResultSet<Item> rs = collection.retrieve(all(Item.class))) {
                rs.forEach(read::add);
            }
            assertEquals(new HashSet<>(all), read);
            try (ResultSet<Item> rs = collection.retrieve(between(Item.ID, 100L, 199L))) {
                assertEquals(100, rs.stream().count());
            }
            assertTrue(arrow.opened.get() >= 2, "scans and ranges read through Arrow");
        }
        assertEquals(0, ArrowReaderProvider.allocatedBytes());
    }

    @Test
    void aThousandAbandonedIterationsLeaveNoArrowMemoryBehind() {
        try (DuckDBPersistence<Item, Long> p = DuckDBPersistence.onPrimaryKey(Item.ID)) {
            IndexedCollection<Item> collection = new ConcurrentIndexedCollection<>(p);
            collection.addAll(items(30_000));
            for (int i = 0; i < 1_000; i++) {
                try (ResultSet<Item> rs = collection.retrieve(all(Item.class))) {
                    Iterator<Item> it = rs.iterator();
                    for (int j = 0; j <= i % 7; j++) {
                        it.next();
                    }
                    assertTrue(ArrowReaderProvider.allocatedBytes() > 0, "a batch is held while iterating");
                }
                assertEquals(0, ArrowReaderProvider.allocatedBytes(), "iteration " + i + " leaked");
            }
            // an iterator of the collection itself, abandoned and closed
            var it = (com.googlecode.cqengine.index.support.CloseableIterator<Item>) collection.iterator();
            it.next();
            it.close();
            assertEquals(0, ArrowReaderProvider.allocatedBytes());
        }
    }

    @Test
    void everyScalarDuckDbTypeDecodesAsTheJdbcReaderDecodesIt() throws Exception {
        String select = "SELECT 42::TINYINT, 4242::SMALLINT, 424242::INTEGER, (-9223372036854775808)::BIGINT, "
                + "1.5::FLOAT, 'NaN'::DOUBLE, '-inf'::DOUBLE, true, 'h\u00e9llo \uD83E\uDD86'::VARCHAR, ''::VARCHAR, "
                + "'\\xAA\\x00'::BLOB, NULL::INTEGER, NULL::VARCHAR "
                + "UNION ALL SELECT -1, -2, -3, 9223372036854775807, -0.0, -0.0, 1e308, false, 'x', 'y', ''::BLOB, 7, 'z'";
        CountingReader jdbc = CountingReader.of("jdbc");
        CountingReader arrow = CountingReader.of("arrow");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             Statement s1 = c.createStatement(); Statement s2 = c.createStatement();
             java.sql.ResultSet r1 = s1.executeQuery(select); java.sql.ResultSet r2 = s2.executeQuery(select);
             RowCursor a = jdbc.open(r1); RowCursor b = arrow.open(r2)) {
            int rows = 0;
            while (a.next()) {
                assertTrue(b.next());
                rows++;
                for (int col = 0; col < 13; col++) {
                    assertEquals(a.row().isNull(col), b.row().isNull(col), "null of column " + col);
                    if (a.row().isNull(col)) {
                        continue;
                    }
                    switch (col) {
                        case 0, 1, 2, 3 -> assertEquals(a.row().getLong(col), b.row().getLong(col));
                        case 4, 5, 6 -> assertEquals(Double.doubleToLongBits(a.row().getDouble(col)),
                                Double.doubleToLongBits(b.row().getDouble(col)), "column " + col);
                        case 7 -> assertEquals(a.row().getBoolean(col), b.row().getBoolean(col));
                        case 8, 9, 12 -> assertEquals(a.row().getString(col), b.row().getString(col));
                        case 10 -> assertArrayEquals(a.row().getBytes(col), b.row().getBytes(col));
                        case 11 -> assertEquals(a.row().getInt(col), b.row().getInt(col));
                        default -> throw new AssertionError(col);
                    }
                }
            }
            assertFalse(b.next());
            assertEquals(2, rows);
        }
        assertEquals(0, ArrowReaderProvider.allocatedBytes());
    }
}
