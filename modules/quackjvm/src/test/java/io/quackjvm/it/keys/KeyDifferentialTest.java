package io.quackjvm.it.keys;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.sqlite.SQLiteIdentityIndex;
import com.googlecode.cqengine.index.support.CloseableIterable;
import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.index.support.KeyStatistics;
import com.googlecode.cqengine.index.support.KeyValue;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.EngineThresholds;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.keys.KeySpec.Item;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static com.googlecode.cqengine.query.QueryFactory.applyThresholds;
import static com.googlecode.cqengine.query.QueryFactory.ascending;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.descending;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.greaterThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.has;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static com.googlecode.cqengine.query.QueryFactory.lessThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.orderBy;
import static com.googlecode.cqengine.query.QueryFactory.queryOptions;
import static com.googlecode.cqengine.query.QueryFactory.startsWith;
import static com.googlecode.cqengine.query.QueryFactory.threshold;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Keyed operations and key-range queries on a DuckDB collection give exactly the answers of an on-heap CQEngine
 * collection holding the same objects, for every supported primary-key type over adversarial keys, in memory and
 * in a file that is closed and reopened halfway. Fixed seeds: a failure names the type, the seed and the step.
 */
class KeyDifferentialTest {

    /** Small, so that modest batches take the Appender and staged-key paths. */
    private static final int APPENDER_THRESHOLD = 6;
    /** Steps per key type: in memory, and (fewer, as every commit reaches the disk) in a file. */
    private static final int STEPS = 150;
    private static final int FILE_STEPS = 80;

    @TempDir
    Path dir;

    static List<KeySpec<?>> specs() {
        return KeySpec.all();
    }

    @ParameterizedTest(name = "{0} in memory")
    @MethodSource("specs")
    void inMemory(KeySpec<?> spec) {
        run(spec, null);
    }

    @ParameterizedTest(name = "{0} in a reopened file")
    @MethodSource("specs")
    void inAReopenedFile(KeySpec<?> spec) {
        run(spec, dir.resolve(spec.name + ".duckdb"));
    }

    /** Raw, for the key types that are not {@code Comparable} to themselves (see {@link KeySpec}). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void run(KeySpec<?> spec, Path file) {
        new Run((KeySpec) spec, file, file == null ? 1 : 2).go();
    }

    /** One differential run: the same operations on both collections, comparing every answer. */
    private static final class Run<K extends Comparable<K>> {
        private final KeySpec<K> spec;
        private final Path file;
        private final int steps;
        private final Random random;
        private final IndexedCollection<Item> heap = new ConcurrentIndexedCollection<>();
        /** The stored item of each key (equals semantics, as the primary key has). */
        private final Map<K, Item> model = new HashMap<>();
        private DuckDBPersistence<Item, K> persistence;
        private IndexedCollection<Item> duck;
        private String step = "start";
        private int stepNumber;

        Run(KeySpec<K> spec, Path file, long seed) {
            this.spec = spec;
            this.file = file;
            this.steps = file == null ? STEPS : FILE_STEPS;
            this.random = new Random(seed * 1_000_003L + spec.name.hashCode());
        }

        private void open() {
            // Item holds its key in a field declared Object: the test's own key classes are allowed by name.
            DuckDBPersistence.Builder<Item, K> b = DuckDBPersistence.builder(spec.key).name("items")
                    .appenderThreshold(APPENDER_THRESHOLD).allowPackages("io.quackjvm.it.keys");
            persistence = (file == null ? b : b.file(file)).build();
            duck = new ConcurrentIndexedCollection<>(persistence);
        }

        void go() {
            open();
            try {
                for (int i = 0; i < steps; i++) {
                    if (file != null && i == steps / 2) {
                        step = "reopen at step " + i;
                        persistence.close();
                        open();
                        compareContents();
                    }
                    stepNumber = i;
                    step();
                    if (i % 25 == 24) {
                        compareContents();
                    }
                }
                compareContents();
                compareStatistics();
            } finally {
                persistence.close();
            }
        }

        private String where() {
            return spec.name + (file == null ? " in memory" : " in a file") + ", step " + stepNumber + ": " + step;
        }

        // -------------------------------------------------------------- values

        private K anyKey() {
            return spec.pool.get(random.nextInt(spec.pool.size()));
        }

        private List<K> distinctKeys(int n) {
            Set<K> keys = new java.util.LinkedHashSet<>();
            for (int tries = 0; keys.size() < n && tries < n * 10; tries++) {
                keys.add(anyKey());
            }
            return new ArrayList<>(keys);
        }

        /** The stored item of the key, or a new one. */
        private Item toAdd(K key) {
            Item stored = model.get(key);
            return stored != null ? stored : spec.item(key, random.nextInt(1000));
        }

        // -------------------------------------------------------------- operations

        private void step() {
            int op = random.nextInt(16);
            switch (op) {
                case 0, 1 -> {
                    Item item = toAdd(anyKey());
                    step = "add " + item;
                    assertEquals(heap.add(item), duck.add(item), where());
                    model.put(spec.keyOf(item), item);
                }
                case 2, 3 -> addAll(1 + random.nextInt(APPENDER_THRESHOLD));
                case 4 -> addAll(APPENDER_THRESHOLD + 1 + random.nextInt(12));
                case 5 -> {
                    K key = anyKey();
                    Item stored = model.get(key);
                    Item item = stored != null && random.nextBoolean() ? stored : spec.item(key, 1000 + random.nextInt(5));
                    step = "remove " + item;
                    assertEquals(heap.remove(item), duck.remove(item), where());
                    if (item.equals(stored)) {
                        model.remove(key);
                    }
                }
                case 6 -> {
                    List<Item> doomed = new ArrayList<>();
                    for (K key : distinctKeys(random.nextBoolean() ? 3 : APPENDER_THRESHOLD + 4)) {
                        doomed.add(toAdd(key));
                    }
                    step = "removeAll " + doomed;
                    assertEquals(heap.removeAll(doomed), duck.removeAll(doomed), where());
                    doomed.forEach(i -> model.remove(spec.keyOf(i), i));
                }
                case 7 -> update(random.nextBoolean() ? 2 : APPENDER_THRESHOLD + 3);
                case 8 -> {
                    K key = anyKey();
                    Item stored = model.get(key);
                    Item item = stored != null && random.nextBoolean() ? stored : spec.item(key, random.nextInt(1000));
                    step = "contains " + item;
                    assertEquals(heap.contains(item), duck.contains(item), where());
                }
                case 9 -> compare(equal(spec.key, anyKey()));
                case 10 -> compare(in(spec.key, distinctKeys(1 + random.nextInt(5))));
                case 11 -> {
                    K bound = anyKey();
                    compare(random.nextBoolean() ? lessThan(spec.key, bound) : lessThanOrEqualTo(spec.key, bound));
                    compare(random.nextBoolean() ? greaterThan(spec.key, bound) : greaterThanOrEqualTo(spec.key, bound));
                }
                case 12 -> {
                    K a = anyKey();
                    K b = anyKey();
                    K lo = a.compareTo(b) <= 0 ? a : b;
                    K hi = lo == a ? b : a;
                    compare(between(spec.key, lo, random.nextBoolean(), hi, random.nextBoolean()));
                }
                case 13 -> {
                    if (spec.string) {
                        String s = (String) anyKey();
                        // any prefix, including one that ends inside a surrogate pair
                        compareStartsWith(s.substring(0, random.nextInt(s.length() + 1)));
                    } else {
                        compare(has(spec.key));
                    }
                }
                case 14 -> {
                    K bound = anyKey();
                    compareOrdered(random.nextBoolean() ? greaterThanOrEqualTo(spec.key, bound) : has(spec.key),
                            random.nextBoolean(), random.nextBoolean());
                }
                default -> compareOrdered(lessThan(spec.key, anyKey()), random.nextBoolean(), true);
            }
        }

        private void addAll(int n) {
            List<Item> batch = new ArrayList<>();
            for (K key : distinctKeys(n)) {
                batch.add(toAdd(key));
            }
            step = "addAll " + batch;
            assertEquals(heap.addAll(batch), duck.addAll(batch), where());
            batch.forEach(i -> model.put(spec.keyOf(i), i));
        }

        /** Replaces stored objects by objects with the same key and another payload. */
        private void update(int n) {
            List<Item> old = new ArrayList<>();
            List<Item> fresh = new ArrayList<>();
            for (K key : distinctKeys(n)) {
                Item stored = model.get(key);
                if (stored != null) {
                    old.add(stored);
                    fresh.add(spec.item(key, stored.payload() + 1));
                }
            }
            step = "update " + old + " -> " + fresh;
            assertEquals(heap.update(old, fresh), duck.update(old, fresh), where());
            fresh.forEach(i -> model.put(spec.keyOf(i), i));
        }

        // -------------------------------------------------------------- comparisons

        private Set<Item> retrieve(IndexedCollection<Item> c, Query<Item> q, int[] size) {
            try (ResultSet<Item> rs = c.retrieve(q)) {
                Set<Item> out = new HashSet<>();
                rs.forEach(out::add);
                size[0] = rs.size();
                return out;
            }
        }

        private void compare(Query<Item> q) {
            step = "retrieve " + q;
            int[] heapSize = new int[1];
            int[] duckSize = new int[1];
            Set<Item> expected = retrieve(heap, q, heapSize);
            assertEquals(expected, retrieve(duck, q, duckSize), where());
            assertEquals(heapSize[0], duckSize[0], "size() of " + where());
        }

        private void compareStartsWith(String prefix) {
            @SuppressWarnings("unchecked")
            com.googlecode.cqengine.attribute.Attribute<Item, String> key =
                    (com.googlecode.cqengine.attribute.Attribute<Item, String>) (Object) spec.key;
            compare(startsWith(key, prefix));
        }

        /**
         * Ordered on the key, through CQEngine's sorting or (with the index-ordering threshold) the key index's
         * sorted keys. Keys that compare equal (BigDecimal 2.0 and 2.00) may come in either order.
         */
        private void compareOrdered(Query<Item> q, boolean ascendingOrder, boolean indexOrdering) {
            QueryOptions options = indexOrdering
                    ? queryOptions(orderBy(ascendingOrder ? ascending(spec.key) : descending(spec.key)),
                    applyThresholds(threshold(EngineThresholds.INDEX_ORDERING_SELECTIVITY, 1.0)))
                    : queryOptions(orderBy(ascendingOrder ? ascending(spec.key) : descending(spec.key)));
            step = "ordered " + q + (ascendingOrder ? " ascending" : " descending")
                    + (indexOrdering ? " by index" : "");
            List<Item> expected = ordered(heap, q, options);
            List<Item> actual = ordered(duck, q, options);
            assertEquals(new HashSet<>(expected), new HashSet<>(actual), where());
            assertEquals(expected.size(), actual.size(), where());
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(0, spec.keyOf(expected.get(i)).compareTo(spec.keyOf(actual.get(i))),
                        "position " + i + " of " + where() + ": " + expected + " vs " + actual);
            }
        }

        private static List<Item> ordered(IndexedCollection<Item> c, Query<Item> q, QueryOptions options) {
            List<Item> out = new ArrayList<>();
            try (ResultSet<Item> rs = c.retrieve(q, options)) {
                rs.forEach(out::add);
            }
            return out;
        }

        private void compareContents() {
            Set<Item> expected = new HashSet<>(heap);
            Set<Item> actual = new HashSet<>();
            duck.forEach(actual::add);
            assertEquals(expected, actual, "contents, " + where());
            assertEquals(heap.size(), duck.size(), "size, " + where());
            assertEquals(new HashSet<>(model.values()), expected, "the model, " + where());
        }

        /** The key index's sorted statistics (used for ordering and by CQEngine's planner) against a TreeSet. */
        private void compareStatistics() {
            step = "sorted statistics";
            SQLiteIdentityIndex<K, Item> index = persistence.createIdentityIndex();
            QueryOptions options = new QueryOptions();
            List<K> sorted = new ArrayList<>(model.keySet());
            sorted.sort(null);
            assertSameOrder(sorted, keysOf(index.getDistinctKeys(options)), "ascending");
            List<K> reversed = new ArrayList<>(sorted);
            java.util.Collections.reverse(reversed);
            assertSameOrder(reversed, keysOf(index.getDistinctKeysDescending(options)), "descending");
            List<K> fromStatistics = new ArrayList<>();
            try (CloseableIterator<KeyStatistics<K>> it = index.getStatisticsForDistinctKeys(options).iterator()) {
                it.forEachRemaining(s -> {
                    assertEquals(1, s.getCount());
                    fromStatistics.add(s.getKey());
                });
            }
            assertSameOrder(sorted, fromStatistics, "statistics");
            assertEquals(model.size(), index.getCountOfDistinctKeys(options));
            for (int i = 0; i < 20; i++) {
                K a = anyKey();
                K b = anyKey();
                K lo = a.compareTo(b) <= 0 ? a : b;
                K hi = lo == a ? b : a;
                boolean loIn = random.nextBoolean();
                boolean hiIn = random.nextBoolean();
                List<K> expected = new ArrayList<>();
                for (K k : sorted) {
                    int l = k.compareTo(lo);
                    int h = k.compareTo(hi);
                    if ((loIn ? l >= 0 : l > 0) && (hiIn ? h <= 0 : h < 0)) {
                        expected.add(k);
                    }
                }
                step = "distinct keys " + lo + (loIn ? "=" : "") + ".." + hi + (hiIn ? "=" : "");
                assertSameOrder(expected, keysOf(index.getDistinctKeys(lo, loIn, hi, hiIn, options)), "range");
                List<K> values = new ArrayList<>();
                try (CloseableIterator<KeyValue<K, Item>> it =
                             index.getKeysAndValues(lo, loIn, hi, hiIn, options).iterator()) {
                    it.forEachRemaining(kv -> {
                        assertEquals(model.get(kv.getKey()), kv.getValue(), where());
                        values.add(kv.getKey());
                    });
                }
                assertSameOrder(expected, values, "keys and values");
                K probe = anyKey();
                assertEquals(model.containsKey(probe) ? 1 : 0, index.getCountForKey(probe, options),
                        "count for key " + probe + ", " + where());
            }
        }

        private List<K> keysOf(CloseableIterable<K> iterable) {
            List<K> out = new ArrayList<>();
            try (CloseableIterator<K> it = iterable.iterator()) {
                it.forEachRemaining(out::add);
            }
            return out;
        }

        private void assertSameOrder(List<K> expected, List<K> actual, String what) {
            assertEquals(new HashSet<>(expected), new HashSet<>(actual), what + ", " + where());
            assertEquals(expected.size(), actual.size(), what + ", " + where());
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(0, expected.get(i).compareTo(actual.get(i)), what + " position " + i + ", " + where());
            }
        }
    }
}
