package io.quackjvm.it.columnar;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ColumnarLayout.withRowCopy()}: a lookup by key reads the row copy alone, every other read and SQL the
 * typed columns; every write through the collection keeps the two exact, and a file must be reopened with the same
 * choice.
 */
class RowCopyTest {

    @TempDir
    Path dir;

    private static DuckDBPersistence<Everything, Integer> open(Path file, boolean rowCopy) {
        ColumnarLayout<Everything> layout = ColumnarLayout.ofRecord(Everything.class);
        return DuckDBPersistence.builder(Everything.ID).file(file).memoryLimit("256MB")
                .columnarLayout(rowCopy ? layout.withRowCopy() : layout).build();
    }

    private static Everything lookup(IndexedCollection<Everything> c, int id) {
        try (ResultSet<Everything> rs = c.retrieve(equal(Everything.ID, id))) {
            List<Everything> out = new ArrayList<>();
            rs.forEach(out::add);
            assertTrue(out.size() <= 1);
            return out.isEmpty() ? null : out.get(0);
        }
    }

    private static void assertSame(Everything want, Everything got, String what) {
        if (want.equals(got)) {
            return;
        }
        for (var rc : Everything.class.getRecordComponents()) {
            try {
                Object a = rc.getAccessor().invoke(want);
                Object b = rc.getAccessor().invoke(got);
                if (!java.util.Objects.deepEquals(a, b)) {
                    throw new AssertionError(what + ", object " + want.id() + ", component " + rc.getName()
                            + ": stored " + a + " read " + b);
                }
            } catch (ReflectiveOperationException x) {
                throw new AssertionError(x);
            }
        }
        assertEquals(want, got, what);
    }

    /** Looks up every key through the copy and scans through the typed columns: both give the objects stored. */
    private static void assertAll(Map<Integer, Everything> expected, IndexedCollection<Everything> c, String what) {
        assertEquals(expected.size(), c.size(), what);
        for (Everything want : expected.values()) {
            assertSame(want, lookup(c, want.id()), what + ", lookup");
        }
        int seen = 0;
        for (Everything e : c) {
            assertSame(expected.get(e.id()), e, what + ", scan");
            seen++;
        }
        assertEquals(expected.size(), seen, what);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7L, 20261201L})
    void everyTypeReadsBackExactlyThroughTheCopyAfterEveryKindOfWrite(long seed) {
        Generator g = new Generator(seed);
        Map<Integer, Everything> expected = new HashMap<>();
        Path file = dir.resolve("copy-" + seed + ".duckdb");
        try (DuckDBPersistence<Everything, Integer> p = open(file, true)) {
            IndexedCollection<Everything> c = new ConcurrentIndexedCollection<>(p);
            List<Everything> bulk = new ArrayList<>();
            for (int id = 0; id < 300; id++) {
                bulk.add(g.next(id));
            }
            c.addAll(bulk); // the Appender
            bulk.forEach(e -> expected.put(e.id(), e));
            for (int id = 300; id < 340; id++) {
                Everything e = g.next(id);
                c.add(e); // a prepared statement
                expected.put(id, e);
            }
            for (int id = 0; id < 40; id++) { // replace in place
                Everything old = expected.get(id);
                Everything replacement = g.next(id);
                assertTrue(c.update(List.of(old), List.of(replacement)));
                expected.put(id, replacement);
            }
            for (int id = 40; id < 60; id++) {
                assertTrue(c.remove(expected.remove(id)));
                assertNull(lookup(c, id), "removed " + id);
            }
            assertAll(expected, c, "seed " + seed);
            p.optimize(); // a checkpoint
            assertAll(expected, c, "seed " + seed + " after optimize");
        }
        try (DuckDBPersistence<Everything, Integer> p = open(file, true)) {
            assertAll(expected, new ConcurrentIndexedCollection<>(p), "seed " + seed + " reopened");
        }
    }

    /** A record whose only floating field is often zero: DuckDB folds the sign at a checkpoint, the copy does not. */
    public record Z(int id, double d) {
        static final SimpleAttribute<Z, Integer> ID = new SimpleAttribute<>(Z.class, Integer.class, "id") {
            @Override public Integer getValue(Z o, QueryOptions q) { return o.id; }
        };
    }

    @Test
    void aLookupReadsTheCopyAndKeepsTheSignOfZeroThroughACheckpoint() {
        try (DuckDBPersistence<Z, Integer> p = DuckDBPersistence.builder(Z.ID)
                .columnarLayout(ColumnarLayout.ofRecord(Z.class).withRowCopy()).build()) {
            IndexedCollection<Z> c = new ConcurrentIndexedCollection<>(p);
            for (int i = 0; i < 6; i++) {
                c.add(new Z(i, i % 2 == 0 ? 0.0 : -0.0));
            }
            p.optimize();
            for (int i = 0; i < 6; i++) {
                try (ResultSet<Z> rs = c.retrieve(equal(Z.ID, i))) {
                    double d = rs.uniqueResult().d();
                    assertEquals(i % 2 == 0 ? 0L : Long.MIN_VALUE, Double.doubleToRawLongBits(d), "object " + i);
                }
            }
        }
    }

    @Test
    void theCopyIsHiddenFromSqlAndTheTypedColumnsStayQueryable() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("view.duckdb")).build()) {
            IndexedCollection<Z> c = db.collection(Z.ID).name("z")
                    .columnarLayout(ColumnarLayout.ofRecord(Z.class).withRowCopy()).build();
            for (int i = 0; i < 10; i++) {
                c.add(new Z(i, i * 1.5));
            }
            assertEquals(67.5, db.query("SELECT sum(d) FROM z").scalar(Double.class));
            QuackException e = assertThrows(QuackException.class, () -> db.query("SELECT _row FROM z").count());
            assertTrue(e.getMessage().contains("_row"), e.getMessage());
        }
    }

    @Test
    void theCopyHoldsWhatWasWrittenThroughTheCollectionNotSqlChangesToTheTable() throws Exception {
        Path file = dir.resolve("stale.duckdb");
        try (DuckDBPersistence<Z, Integer> p = DuckDBPersistence.builder(Z.ID).file(file)
                .columnarLayout(ColumnarLayout.ofRecord(Z.class).withRowCopy()).build()) {
            new ConcurrentIndexedCollection<>(p).add(new Z(1, 2.5));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            s.execute("UPDATE z SET d = 9.0"); // outside the collection: the documented way to make copies stale
        }
        try (DuckDBPersistence<Z, Integer> p = DuckDBPersistence.builder(Z.ID).file(file)
                .columnarLayout(ColumnarLayout.ofRecord(Z.class).withRowCopy()).build()) {
            IndexedCollection<Z> c = new ConcurrentIndexedCollection<>(p);
            try (ResultSet<Z> rs = c.retrieve(equal(Z.ID, 1))) {
                assertEquals(new Z(1, 2.5), rs.uniqueResult(), "the lookup read the copy, not the typed column");
            }
        }
    }

    @Test
    void aFileMustBeReopenedWithTheSameChoice() throws Exception {
        Path without = dir.resolve("without.duckdb");
        Path with = dir.resolve("with.duckdb");
        Generator g = new Generator(3);
        Everything e = g.next(1);
        try (DuckDBPersistence<Everything, Integer> p = open(without, false)) {
            new ConcurrentIndexedCollection<>(p).add(e);
        }
        try (DuckDBPersistence<Everything, Integer> p = open(with, true)) {
            new ConcurrentIndexedCollection<>(p).add(e);
        }
        QuackException noCopy = assertThrows(QuackException.class, () -> open(without, true));
        assertTrue(noCopy.getMessage().contains("stored without ColumnarLayout.withRowCopy()"), noCopy.getMessage());
        QuackException copy = assertThrows(QuackException.class, () -> open(with, false));
        assertTrue(copy.getMessage().contains("open it with withRowCopy()"), copy.getMessage());
        // and each still opens with its own choice
        try (DuckDBPersistence<Everything, Integer> p = open(without, false)) {
            assertSame(e, lookup(new ConcurrentIndexedCollection<>(p), 1), "without a copy");
        }
        try (DuckDBPersistence<Everything, Integer> p = open(with, true)) {
            assertSame(e, lookup(new ConcurrentIndexedCollection<>(p), 1), "with a copy");
        }
    }

    @Test
    void theBulkWriterAndCompactKeepTheCopyExact() {
        Path file = dir.resolve("bulk.duckdb");
        Generator g = new Generator(99);
        Map<Integer, Everything> expected = new HashMap<>();
        try (DuckDBPersistence<Everything, Integer> p = open(file, true)) {
            IndexedCollection<Everything> c = new ConcurrentIndexedCollection<>(p);
            for (int id = 0; id < 30; id++) {
                Everything e = g.next(id);
                c.add(e);
                expected.put(id, e);
            }
            try (DuckDBBulkWriter<Everything> writer = p.bulkWriter()) {
                for (int id = 20; id < 120; id++) { // replaces 20..29, adds the rest
                    Everything e = g.next(id);
                    writer.add(e);
                    expected.put(id, e);
                }
                writer.commit();
            }
            assertAll(expected, c, "after the bulk writer");
            p.compact();
            assertAll(expected, c, "after compact");
        }
        try (DuckDBPersistence<Everything, Integer> p = open(file, true)) {
            assertAll(expected, new ConcurrentIndexedCollection<>(p), "reopened after compact");
        }
    }

    @Test
    void withRowCopyIsAFlagOnAnOtherwiseEqualLayout() {
        ColumnarLayout<Z> plain = ColumnarLayout.ofRecord(Z.class);
        ColumnarLayout<Z> copy = plain.withRowCopy();
        assertFalse(plain.rowCopy());
        assertTrue(copy.rowCopy());
        assertTrue(copy.description().rowCopy());
        assertEquals(plain.fields(), copy.fields());
        assertArrayEquals(new Object[]{new Z(4, 1.0)}, new Object[]{copy.description().newObject(new Object[]{4, 1.0})});
    }
}
