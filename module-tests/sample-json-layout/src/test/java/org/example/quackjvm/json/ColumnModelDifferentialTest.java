package org.example.quackjvm.json;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.Aggregates;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.contains;
import static com.googlecode.cqengine.query.QueryFactory.endsWith;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.greaterThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.has;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static com.googlecode.cqengine.query.QueryFactory.lessThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.not;
import static com.googlecode.cqengine.query.QueryFactory.or;
import static com.googlecode.cqengine.query.QueryFactory.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One column model: the same attribute gives the same answers through {@code retrieve}, {@code database.from(c)
 * .where(q)} with counts, sums, minimums, maximums and groups, and {@code database.query(sql)}, on a collection
 * stored in the blob layout (every attribute through a {@code DuckDBIndex}), in the columnar layout and in this
 * sample's third-party layout (both through the columns their layouts declare, with no index), each compared with
 * CQEngine on the heap. Values include the ones where DuckDB's own comparison differs from Java's: -0.0 and 0.0,
 * NaN, and strings whose UTF-8 order is not their UTF-16 order. Random data; the seed is printed and replayed with
 * {@code -Dseed=N}.
 */
class ColumnModelDifferentialTest {

    private static final double[] PRICES = {-0.0, 0.0, Double.NaN, Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY, -1.5, 1.5, 99.75, 250.25, Double.MIN_VALUE};
    /** ASCII, U+E000..U+FFFF and a supplementary character: UTF-8 and UTF-16 order them differently. */
    private static final String[] TITLES = {"", "a", "ab", "b", "Zed", "\uE000x", "\uFFFDy", "\uD83D\uDE00z",
            "a\uD83D\uDE00", "a\uFFFF"};

    private static long seed;
    private static List<Item> items;
    private static IndexedCollection<Item> heap;
    private static DuckDBDatabase database;
    private static Map<String, IndexedCollection<Item>> stored;

    @BeforeAll
    static void store() {
        seed = Long.getLong("seed", System.nanoTime());
        System.out.println("ColumnModelDifferentialTest seed: " + seed + " (replay with -Dseed=" + seed + ")");
        Random r = new Random(seed);
        items = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            items.add(new Item("id" + i, r.nextInt(12) == 0 ? null : TITLES[r.nextInt(TITLES.length)],
                    r.nextInt(100), r.nextInt(5) == 0 ? Long.MIN_VALUE + r.nextInt(3) : r.nextLong() % 1000,
                    r.nextInt(12) == 0 ? null : PRICES[r.nextInt(PRICES.length)], r.nextBoolean(),
                    r.nextInt(8) == 0 ? null : Item.Genre.values()[r.nextInt(3)]));
        }
        heap = new ConcurrentIndexedCollection<>();
        heap.addAll(items);
        database = DuckDBDatabase.builder().inMemory().build();
        stored = new LinkedHashMap<>();
        IndexedCollection<Item> blob = database.collection(Item.ID).name("blob_item").build();
        for (Attribute<Item, ?> a : Item.FIELDS) {
            blob.addIndex(index(a));
        }
        stored.put("blob_item", blob);
        stored.put("columnar_item", database.collection(Item.ID).name("columnar_item")
                .columnarLayout(ColumnarLayout.ofRecord(Item.class)).build());
        stored.put("json_item", database.collection(Item.ID).name("json_item").layout(JsonTextLayoutProvider.NAME)
                .build());
        for (IndexedCollection<Item> c : stored.values()) {
            c.addAll(items);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static DuckDBIndex<?, Item> index(Attribute<Item, ?> a) {
        return DuckDBIndex.onAttribute((Attribute) a);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static List<Query<Item>> queries() {
        List<Query<Item>> out = new ArrayList<>();
        for (double p : PRICES) {
            out.add(equal(Item.PRICE, p));
            out.add(lessThan(Item.PRICE, p));
            out.add(greaterThanOrEqualTo(Item.PRICE, p));
            out.add(not(lessThanOrEqualTo(Item.PRICE, p)));
        }
        out.add(between(Item.PRICE, -0.0, true, 0.0, false));
        out.add(between(Item.PRICE, -1.5, false, 99.75, true));
        out.add(in(Item.PRICE, -0.0, Double.NaN, 250.25));
        out.add(has(Item.PRICE));
        out.add(not(has(Item.PRICE)));
        for (String t : TITLES) {
            out.add(equal(Item.TITLE, t));
            out.add(lessThan(Item.TITLE, t));
            out.add(greaterThanOrEqualTo(Item.TITLE, t));
        }
        out.add(startsWith(Item.TITLE, "a"));
        out.add(endsWith(Item.TITLE, "z"));
        out.add(contains(Item.TITLE, "\uD83D\uDE00"));
        out.add(in(Item.TITLE, "b", "\uE000x", "\uD83D\uDE00z"));
        out.add(not(has(Item.TITLE)));
        out.add(between(Item.PAGES, 10, true, 60, false));
        out.add(greaterThan(Item.PAGES, 90));
        out.add(in(Item.PAGES, 1, 2, 3, 50));
        out.add(lessThan(Item.STOCK, 0L));
        out.add(equal(Item.STOCK, Long.MIN_VALUE));
        out.add(greaterThanOrEqualTo(Item.STOCK, 500L));
        out.add(equal(Item.IN_PRINT, true));
        out.add(lessThan(Item.IN_PRINT, true));
        out.add(equal(Item.GENRE, Item.Genre.POETRY));
        out.add(lessThan(Item.GENRE, Item.Genre.SCIENCE));
        out.add(greaterThanOrEqualTo(Item.GENRE, Item.Genre.SCIENCE));
        out.add(in(Item.GENRE, Item.Genre.FICTION, Item.Genre.POETRY));
        out.add(not(has(Item.GENRE)));
        out.add(and(equal(Item.IN_PRINT, false), lessThan(Item.PRICE, 1.5)));
        out.add(or(equal(Item.GENRE, Item.Genre.SCIENCE), greaterThan(Item.PAGES, 80)));
        out.add(and(not(equal(Item.PRICE, 0.0)), between(Item.PAGES, 0, true, 50, true)));
        return out;
    }

    private static Set<String> ids(ResultSet<Item> result) {
        Set<String> out = new HashSet<>();
        try (result) {
            for (Item i : result) {
                out.add(i.id());
            }
        }
        return out;
    }

    @Test
    void retrieveAndCountAndSumGiveTheHeapsAnswers() {
        for (Query<Item> q : queries()) {
            Set<String> expected = ids(heap.retrieve(q));
            double pages = 0;
            for (Item i : heap.retrieve(q)) {
                pages += i.pages();
            }
            for (Map.Entry<String, IndexedCollection<Item>> e : stored.entrySet()) {
                String where = e.getKey() + ", " + q + ", seed " + seed;
                assertEquals(expected, ids(e.getValue().retrieve(q)), "retrieve: " + where);
                Aggregates<Item> from = database.from(e.getValue()).where(q);
                assertEquals(expected.size(), from.count(), "count: " + where);
                assertEquals(pages, from.sum(Item.PAGES), "sum(pages): " + where);
            }
        }
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void minMaxAndGroupsFollowJavasOrder() {
        List<Query<Item>> wheres = List.of(has(Item.ID), lessThan(Item.PAGES, 50), equal(Item.IN_PRINT, true));
        for (Query<Item> q : wheres) {
            List<Item> matching = new ArrayList<>();
            heap.retrieve(q).forEach(matching::add);
            for (Attribute<Item, ?> a : Item.FIELDS) {
                Attribute<Item, Comparable> attr = (Attribute) a;
                Comparator<Comparable> order = Comparator.naturalOrder();
                List<Comparable> values = matching.stream().map(i -> (Comparable) value(attr, i))
                        .filter(Objects::nonNull).toList();
                Optional<Comparable> min = values.stream().min(order);
                Optional<Comparable> max = values.stream().max(order);
                Map<Comparable, Long> groups = new TreeMap<>(order);
                for (Comparable v : values) {
                    groups.merge(v, 1L, Long::sum);
                }
                for (Map.Entry<String, IndexedCollection<Item>> e : stored.entrySet()) {
                    String where = e.getKey() + ", " + a.getAttributeName() + " where " + q + ", seed " + seed;
                    Aggregates<Item> from = database.from(e.getValue()).where(q);
                    assertEquals(exact(min), exact(from.min(attr)), "min: " + where);
                    assertEquals(exact(max), exact(from.max(attr)), "max: " + where);
                    Map<Comparable, Long> got = from.groupBy(attr).count();
                    assertEquals(new ArrayList<>(groups.keySet()).stream().map(ColumnModelDifferentialTest::exact)
                            .toList(), got.keySet().stream().map(ColumnModelDifferentialTest::exact).toList(),
                            "group keys in Java's order: " + where);
                    assertEquals(new ArrayList<>(groups.values()), new ArrayList<>(got.values()),
                            "group counts: " + where);
                }
            }
        }
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void joinsMeetOnJavasEqualityAcrossIndexesAndColumns() {
        List<List<String>> pairs = List.of(List.of("blob_item", "columnar_item"), List.of("json_item", "blob_item"),
                List.of("columnar_item", "json_item"), List.of("columnar_item", "columnar_item"));
        for (Attribute<Item, ?> a : Item.FIELDS) {
            long expected = 0;
            Map<Object, Long> counts = new HashMap<>();
            for (Item i : items) {
                Object v = value(a, i);
                if (v != null) {
                    counts.merge(v, 1L, Long::sum);
                }
            }
            for (long n : counts.values()) {
                expected += n * n;
            }
            for (List<String> pair : pairs) {
                Attribute<Item, Object> attr = (Attribute) a;
                String where = pair + " on " + a.getAttributeName() + ", seed " + seed;
                try {
                    long got = database.join(stored.get(pair.get(0)), stored.get(pair.get(1))).on(attr, attr).count();
                    assertEquals(expected, got, where);
                } catch (IllegalArgumentException refused) {
                    // Only doubles stored in two forms (an index or encoded column, and a DOUBLE column) are refused.
                    assertEquals(Item.PRICE, a, where + ": " + refused.getMessage());
                    assertTrue(pair.contains("columnar_item") && !pair.get(0).equals(pair.get(1)),
                            where + ": " + refused.getMessage());
                }
            }
        }
    }

    /** A value as a string that tells -0.0 from 0.0. */
    private static String exact(Object v) {
        if (v instanceof Optional<?> o) {
            return o.map(ColumnModelDifferentialTest::exact).orElse("none");
        }
        return v instanceof Double d ? Long.toHexString(Double.doubleToLongBits(d)) + "/" + d : String.valueOf(v);
    }

    private static Object value(Attribute<Item, ?> a, Item i) {
        for (Object v : a.getValues(i, null)) {
            return v;
        }
        return null;
    }

    @Test
    void sqlSeesTheValuesTheObjectsHold() {
        Map<String, Predicate<Item>> conditions = new LinkedHashMap<>();
        conditions.put("pages BETWEEN 10 AND 60", i -> i.pages() >= 10 && i.pages() <= 60);
        conditions.put("price > 100.5", i -> i.price() != null && Double.compare(i.price(), 100.5) > 0);
        conditions.put("title = 'b'", i -> "b".equals(i.title()));
        conditions.put("starts_with(title, 'a')", i -> i.title() != null && i.title().startsWith("a"));
        conditions.put("genre = 'POETRY'", i -> i.genre() == Item.Genre.POETRY);
        conditions.put("inPrint AND stock < 0", i -> i.inPrint() && i.stock() < 0);
        for (Map.Entry<String, Predicate<Item>> c : conditions.entrySet()) {
            Set<String> expected = new HashSet<>();
            items.stream().filter(c.getValue()).forEach(i -> expected.add(i.id()));
            for (String name : stored.keySet()) {
                Set<String> got = new HashSet<>(database.query("SELECT id FROM " + name + " WHERE " + c.getKey())
                        .list(String.class));
                assertEquals(expected, got, name + ": " + c.getKey() + ", seed " + seed);
            }
        }
    }

    @Test
    void aRangeOnADeclaredColumnIsAnsweredByDuckDBNotByReadingEveryObject() {
        Query<Item> narrow = between(Item.PAGES, 10, true, 12, true);
        long matches = heap.retrieve(narrow).size();
        for (String name : List.of("columnar_item", "json_item")) {
            long before = Item.PAGES_READS.get();
            assertEquals(matches, ids(stored.get(name).retrieve(narrow)).size(), name);
            long read = Item.PAGES_READS.get() - before;
            assertEquals(0, read, name + ": the range read the attribute of " + read + " objects in Java (of "
                    + items.size() + "); it was not pushed down to DuckDB");
        }
    }
}
