package io.quackjvm.it.index;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.has;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link DuckDBIndex#onAttributeCovering}: objects read from the index table's copy are the stored objects. */
class CoveringIndexTest {

    private static DuckDBPersistence<Item, Integer> persistence(boolean columnar) {
        DuckDBPersistence.Builder<Item, Integer> b = DuckDBPersistence.builder(Item.ID);
        if (columnar) {
            b.columnarLayout(ColumnarLayout.reflective(Item.class));
        }
        return b.build();
    }

    private static List<Item> all(IndexedCollection<Item> c, Query<Item> q) {
        List<Item> out = new ArrayList<>();
        try (ResultSet<Item> rs = c.retrieve(q)) {
            rs.forEach(out::add);
        }
        out.sort(java.util.Comparator.comparingInt(Item::id));
        return out;
    }

    /**
     * Zeros of both signs come back from the covering index's copy and from the object table, before and after the
     * checkpoint optimize() runs (which folds a FLOAT/DOUBLE column segment of zeros into one value); see
     * it/columnar/SignedZeroTest.
     */
    @ParameterizedTest(name = "columnar {0}")
    @ValueSource(booleans = {false, true})
    void signedZerosSurviveTheCopy(boolean columnar) {
        try (DuckDBPersistence<Item, Integer> p = persistence(columnar)) {
            IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
            c.addIndex(DuckDBIndex.onAttributeCovering(Item.WEIGHT));
            List<Item> items = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                double z = i % 2 == 0 ? 0.0 : -0.0;
                items.add(new Item(i, "n" + i, z, (float) z, java.math.BigDecimal.ONE, i, Item.Colour.RED, true,
                        List.of(), null));
            }
            c.addAll(items.subList(0, 3));
            c.addAll(items.subList(3, 6));
            assertEquals(items, all(c, has(Item.WEIGHT)));
            p.optimize();
            assertEquals(items, all(c, has(Item.WEIGHT)));
        }
    }

    private static Item item(int id, double score, List<String> tags) {
        return Item.of(id, "n" + id, score, tags);
    }

    /**
     * Writes of every kind (small and Appender-sized adds, replacing updates, removes, clear) keep the copies equal
     * to the stored objects: every range answered from the index table equals the same filter over a model.
     */
    @ParameterizedTest(name = "columnar {0}")
    @ValueSource(booleans = {false, true})
    void copiesFollowEveryWrite(boolean columnar) {
        try (DuckDBPersistence<Item, Integer> p = persistence(columnar)) {
            IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
            DuckDBIndex<Double, Item> score = DuckDBIndex.onAttributeCovering(Item.SCORE);
            c.addIndex(score);
            c.addIndex(DuckDBIndex.onAttributeCovering(Item.TAGS));
            assertTrue(score.isCovering());
            java.util.Map<Integer, Item> model = new java.util.TreeMap<>();
            java.util.Random r = new java.util.Random(5);
            for (int round = 0; round < 12; round++) {
                List<Item> removed = new ArrayList<>();
                List<Item> added = new ArrayList<>();
                int n = round % 3 == 0 ? 60 : 1 + r.nextInt(5);
                java.util.Set<Integer> touched = new java.util.HashSet<>();
                for (int i = 0; i < n; i++) {
                    int id = r.nextInt(120);
                    if (!touched.add(id)) {
                        continue;
                    }
                    Item old = model.get(id);
                    if (old != null) {
                        removed.add(old);
                    }
                    if (old == null || r.nextInt(4) != 0) {
                        Item fresh = item(id, 1 + r.nextInt(50), List.of("t" + r.nextInt(4), "t" + r.nextInt(4)));
                        added.add(fresh);
                        model.put(id, fresh);
                    } else {
                        model.remove(id);
                    }
                }
                c.update(removed, added);
                if (round == 6) {
                    p.optimize();
                }
                double lo = 1 + r.nextInt(40);
                List<Item> expected = new ArrayList<>();
                for (Item i : model.values()) {
                    if (Item.SCORE.getValue(i, null) >= lo && Item.SCORE.getValue(i, null) <= lo + 8) {
                        expected.add(i);
                    }
                }
                assertEquals(expected, all(c, between(Item.SCORE, lo, lo + 8)), "round " + round);
                List<Item> tagged = new ArrayList<>();
                for (Item i : model.values()) {
                    if (i.tags.contains("t1")) {
                        tagged.add(i);
                    }
                }
                // An object with the value twice among its tags still comes once.
                assertEquals(tagged, all(c, equal(Item.TAGS, "t1")), "round " + round);
            }
            c.clear();
            assertTrue(all(c, has(Item.SCORE)).isEmpty());
        }
    }

    /** A covering table is found again on reopening; one built without copies is rebuilt as covering, and back. */
    @Test
    void reopenReusesOrRebuilds(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.duckdb");
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            items.add(item(i, i, List.of()));
        }
        String table;
        try (DuckDBPersistence<Item, Integer> p = DuckDBPersistence.builder(Item.ID).file(file).build()) {
            IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
            DuckDBIndex<Double, Item> plain = DuckDBIndex.onAttribute(Item.SCORE);
            c.addIndex(plain);
            assertFalse(plain.isCovering());
            c.addAll(items);
            table = plain.getTableName();
        }
        for (boolean covering : new boolean[]{true, true, false}) {
            try (DuckDBPersistence<Item, Integer> p = DuckDBPersistence.builder(Item.ID).file(file).build()) {
                IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
                c.addIndex(covering ? DuckDBIndex.onAttributeCovering(Item.SCORE) : DuckDBIndex.onAttribute(Item.SCORE));
                assertEquals(items.subList(10, 21), all(c, between(Item.SCORE, 10.0, 20.0)));
            }
            try (Connection raw = DriverManager.getConnection("jdbc:duckdb:" + file);
                 java.sql.Statement s = raw.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.columns "
                         + "WHERE table_name = '" + table + "'")) {
                rs.next();
                assertEquals(covering ? 3 : 2, rs.getInt(1), "columns of " + table);
            }
        }
    }

    /**
     * On the columnar layout a covering index table carries each object as one row-copy BLOB (one column for DuckDB
     * to fetch per match, not one per field), whether or not the object table keeps a row copy; the objects read
     * from it, by a range and by index ordering, equal the stored ones, before and after reopening.
     */
    @ParameterizedTest(name = "row copy in the object table {0}")
    @ValueSource(booleans = {false, true})
    void columnarCopyIsOneBlobColumn(boolean rowCopy, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.duckdb");
        ColumnarLayout layout = rowCopy ? ColumnarLayout.reflective(Item.class).withRowCopy()
                : ColumnarLayout.reflective(Item.class);
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            items.add(item(i, i % 97, List.of("t" + i % 3)));
        }
        String table = null;
        for (int open = 0; open < 2; open++) {
            try (DuckDBPersistence<Item, Integer> p = DuckDBPersistence.builder(Item.ID).file(file)
                    .columnarLayout(layout).build()) {
                IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
                DuckDBIndex<Double, Item> score = DuckDBIndex.onAttributeCovering(Item.SCORE);
                c.addIndex(score);
                if (open == 0) {
                    c.addAll(items.subList(0, 200));
                    items.subList(200, 300).forEach(c::add);
                }
                table = score.getTableName();
                List<Item> expected = new ArrayList<>();
                for (Item i : items) {
                    if (Item.SCORE.getValue(i, null) >= 10 && Item.SCORE.getValue(i, null) <= 20) {
                        expected.add(i);
                    }
                }
                assertEquals(expected, all(c, between(Item.SCORE, 10.0, 20.0)), "open " + open);
                List<Item> ordered = new ArrayList<>();
                try (ResultSet<Item> rs = c.retrieve(between(Item.SCORE, 10.0, 20.0), com.googlecode.cqengine.query
                        .QueryFactory.queryOptions(com.googlecode.cqengine.query.QueryFactory.orderBy(
                                com.googlecode.cqengine.query.QueryFactory.ascending(Item.SCORE)),
                        com.googlecode.cqengine.query.QueryFactory.applyThresholds(
                                com.googlecode.cqengine.query.QueryFactory.threshold(
                                        com.googlecode.cqengine.query.option.EngineThresholds
                                                .INDEX_ORDERING_SELECTIVITY, 1.0))))) {
                    rs.forEach(ordered::add);
                }
                assertEquals(expected.size(), ordered.size(), "open " + open);
                for (int k = 1; k < ordered.size(); k++) {
                    assertTrue(ordered.get(k - 1).score <= ordered.get(k).score, "index order, open " + open);
                }
                assertEquals(new java.util.HashSet<>(expected), new java.util.HashSet<>(ordered), "open " + open);
            }
        }
        try (Connection raw = DriverManager.getConnection("jdbc:duckdb:" + file);
             java.sql.Statement s = raw.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT column_name, data_type FROM information_schema.columns "
                     + "WHERE table_name = '" + table + "' ORDER BY ordinal_position")) {
            List<String> columns = new ArrayList<>();
            while (rs.next()) {
                columns.add(rs.getString(1) + " " + rs.getString(2));
            }
            assertEquals(3, columns.size(), "columns of " + table + ": " + columns);
            assertEquals("o__row BLOB", columns.get(2), "columns of " + table + ": " + columns);
        }
    }

    /**
     * A range or equality on a covering index is written with its bounds as SQL literals, read as a narrow answer
     * first and, past {@code IndexResultSet.SMALL_RESULT} rows, read again whole: answers of every size, before and
     * after optimize(), equal the filter over the objects.
     */
    @ParameterizedTest(name = "columnar {0}")
    @ValueSource(booleans = {false, true})
    void narrowAndWideAnswersAreWhole(boolean columnar) {
        try (DuckDBPersistence<Item, Integer> p = persistence(columnar)) {
            IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
            c.addIndex(DuckDBIndex.onAttributeCovering(Item.SCORE));
            List<Item> items = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                items.add(item(i, (i * 7919) % 3000 - 1500.5, List.of()));
            }
            c.addAll(items);
            for (int pass = 0; pass < 2; pass++) {
                for (double[] b : new double[][]{{-10, 10}, {-1500.5, 1499.5}, {-1200, 300}, {0, 0}, {-0.5, -0.5}}) {
                    List<Item> expected = new ArrayList<>();
                    for (Item i : items) {
                        double v = Item.SCORE.getValue(i, null);
                        if (v >= b[0] && v <= b[1]) {
                            expected.add(i);
                        }
                    }
                    assertEquals(expected, all(c, between(Item.SCORE, b[0], b[1])), "between " + b[0] + " and " + b[1]);
                    try (ResultSet<Item> rs = c.retrieve(between(Item.SCORE, b[0], b[1]))) {
                        assertEquals(expected.size(), rs.size());
                    }
                }
                assertEquals(1, all(c, equal(Item.SCORE, -0.5)).size());
                assertEquals(1501, all(c, com.googlecode.cqengine.query.QueryFactory.lessThan(Item.SCORE, 0.0)).size());
                assertEquals(1499, all(c, com.googlecode.cqengine.query.QueryFactory.greaterThan(Item.SCORE, 0.0)).size());
                p.optimize();
            }
        }
    }

    /**
     * Bounds written into SQL keep Java's semantics for strings that quote, look like SQL or placeholders, carry a
     * NUL (bound as a parameter instead) or surrogates (blob layout: the columnar one cannot store an unpaired one).
     */
    @Test
    void stringBoundsAreWrittenExactly() {
        String[] names = {"it's", "a'b", "''", "?", "x\u0000y", "'; DROP TABLE items; --", "\uD83D\uDE00", "\uE000",
                "\uD800", "a", "ab", "b", "", "\\'", "$1"};
        try (DuckDBPersistence<Item, Integer> p = persistence(false)) {
            IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
            c.addIndex(DuckDBIndex.onAttributeCovering(Item.NAME));
            List<Item> items = new ArrayList<>();
            for (int i = 0; i < names.length; i++) {
                items.add(Item.of(i, names[i], i, List.of()));
            }
            c.addAll(items);
            for (int pass = 0; pass < 2; pass++) {
                for (String a : names) {
                    List<Item> eq = new ArrayList<>();
                    List<Item> less = new ArrayList<>();
                    for (Item i : items) {
                        String v = Item.NAME.getValue(i, null);
                        if (v.equals(a)) {
                            eq.add(i);
                        }
                        if (v.compareTo(a) < 0) {
                            less.add(i);
                        }
                    }
                    assertEquals(eq, all(c, equal(Item.NAME, a)), "equal " + a);
                    assertEquals(less, all(c, com.googlecode.cqengine.query.QueryFactory.lessThan(Item.NAME, a)), "lessThan " + a);
                    for (String b : names) {
                        if (a.compareTo(b) <= 0) {
                            List<Item> in = new ArrayList<>();
                            for (Item i : items) {
                                String v = Item.NAME.getValue(i, null);
                                if (v.compareTo(a) >= 0 && v.compareTo(b) < 0) {
                                    in.add(i);
                                }
                            }
                            assertEquals(in, all(c, between(Item.NAME, a, true, b, false)), a + " .. " + b);
                        }
                    }
                }
                p.optimize();
            }
            assertEquals(names.length, c.size(), "nothing a bound wrote into SQL changed the table");
        }
    }
}
