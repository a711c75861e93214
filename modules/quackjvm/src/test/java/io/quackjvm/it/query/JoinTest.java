package io.quackjvm.it.query;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBJoin;
import io.quackjvm.api.Joined;
import io.quackjvm.api.PersistenceClosedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.existsIn;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Typed joins ({@code database.join(left, right)}) against a hash join written by hand over the same objects on
 * the heap, on both layouts with random indexes and restrictions; a reopened two-collection file; joins while two
 * collections are written; refusals; release of the stream's connection.
 */
class JoinTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "seed {0} columnar {1}")
    @CsvSource({"3, false", "3, true", "11, false", "11, true", "99, false", "99, true"})
    void joinsMatchAHashJoinOnTheHeap(long seed, boolean columnar) {
        Random r = new Random(seed);
        try (QueryFixture f = new QueryFixture(r, columnar, 300, 30, DuckDBDatabase.builder())) {
            for (int i = 0; i < 40; i++) {
                long querySeed = r.nextLong();
                boolean byMaker = r.nextInt(3) == 0;
                Attribute<Auto, ?> leftKey = byMaker ? Auto.MAKER : Auto.DEALER;
                Attribute<Dealer, ?> rightKey = byMaker ? Dealer.BRANDS : Dealer.ID;
                Query<Auto> leftQuery = r.nextBoolean() ? null
                        : QueryTreeDifferentialTest.randomQuery(new Random(querySeed), 1, f.dealers, f::visible);
                Query<Auto> heapLeftQuery = leftQuery == null ? null
                        : QueryTreeDifferentialTest.randomQuery(new Random(querySeed), 1, f.heapDealers, f::visible);
                Query<Dealer> rightQuery = switch (r.nextInt(4)) {
                    case 0 -> equal(Dealer.CITY, QueryFixture.CITIES[r.nextInt(4)]);
                    case 1 -> greaterThan(Dealer.STARS, r.nextInt(5));
                    case 2 -> lessThan(Dealer.NAME_LENGTH, 9);
                    default -> null;
                };
                String context = "seed " + seed + " columnar " + columnar + " join #" + i + " on "
                        + leftKey.getAttributeName() + " where " + leftQuery + " / " + rightQuery;
                boolean visible = f.visible(leftKey) && f.visible(rightKey);
                DuckDBJoin<Auto, Dealer> join = f.db.join(f.autos, f.dealers);
                if (!visible) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> on(join, byMaker), context);
                    assertTrue(e.getMessage().contains("DuckDBIndex"), e.getMessage());
                    continue;
                }
                DuckDBJoin<Auto, Dealer> joined = on(join, byMaker);
                if (leftQuery != null) {
                    joined = joined.whereLeft(leftQuery);
                }
                if (rightQuery != null) {
                    joined = joined.whereRight(rightQuery);
                }
                Set<String> expected = hashJoin(f, byMaker, heapLeftQuery, rightQuery);
                List<String> actual;
                try (Stream<Joined<Auto, Dealer>> s = joined.stream()) {
                    actual = s.map(JoinTest::pair).collect(Collectors.toList());
                }
                assertEquals(new TreeSet<>(expected), new TreeSet<>(actual), context);
                assertEquals(expected.size(), actual.size(), "each pair once, " + context);
                assertEquals(expected.size(), joined.count(), "count() of " + context);
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static DuckDBJoin<Auto, Dealer> on(DuckDBJoin<Auto, Dealer> join, boolean byMaker) {
        return byMaker ? join.on(Auto.MAKER, Dealer.BRANDS) : join.on((Attribute) Auto.DEALER, (Attribute) Dealer.ID);
    }

    private static String pair(Joined<Auto, Dealer> j) {
        return j.left().id() + "-" + j.right().id();
    }

    /** What an application would write on the heap: a hash map from key value to right objects, probed per left. */
    private static Set<String> hashJoin(QueryFixture f, boolean byMaker, Query<Auto> leftQuery, Query<Dealer> rightQuery) {
        QueryOptions o = new QueryOptions();
        Map<Object, List<Dealer>> byValue = new HashMap<>();
        for (Dealer d : f.heapDealers) {
            if (rightQuery != null && !rightQuery.matches(d, o)) {
                continue;
            }
            Iterable<?> values = byMaker ? d.brands() : List.of(d.id());
            for (Object v : new LinkedHashSet<>((java.util.Collection<?>) values)) {
                byValue.computeIfAbsent(v, k -> new ArrayList<>()).add(d);
            }
        }
        Set<String> pairs = new LinkedHashSet<>();
        for (Auto a : f.heapAutos) {
            if (leftQuery != null && !leftQuery.matches(a, o)) {
                continue;
            }
            for (Dealer d : byValue.getOrDefault(byMaker ? a.maker() : a.dealerId(), List.of())) {
                pairs.add(a.id() + "-" + d.id());
            }
        }
        return pairs;
    }

    @Test
    void aReopenedTwoCollectionFileJoinsAsBefore() {
        Path file = dir.resolve("shop.duckdb");
        long before;
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).build()) {
            IndexedCollection<Auto> autos = db.collection(Auto.ID).name("auto").build();
            IndexedCollection<Dealer> dealers = db.collection(Dealer.ID).name("dealer").build();
            autos.addIndex(DuckDBIndex.onAttribute(Auto.DEALER));
            Random r = new Random(5);
            for (int i = 0; i < 200; i++) {
                autos.add(QueryFixture.randomAuto(r, i, 20));
            }
            for (int i = 0; i < 20; i++) {
                dealers.add(QueryFixture.randomDealer(r, i));
            }
            before = db.join(autos, dealers).on(Auto.DEALER, Dealer.ID).whereRight(greaterThan(Dealer.STARS, 2)).count();
            assertTrue(before > 0);
        }
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).build()) {
            IndexedCollection<Auto> autos = db.collection(Auto.ID).name("auto").build();
            IndexedCollection<Dealer> dealers = db.collection(Dealer.ID).name("dealer").build();
            autos.addIndex(DuckDBIndex.onAttribute(Auto.DEALER));
            DuckDBJoin<Auto, Dealer> join = db.join(autos, dealers).on(Auto.DEALER, Dealer.ID)
                    .whereRight(greaterThan(Dealer.STARS, 2));
            assertEquals(before, join.count());
            try (Stream<Joined<Auto, Dealer>> s = join.stream()) {
                assertEquals(before, s.peek(j -> assertEquals(j.left().dealerId(), j.right().id())).count());
            }
        }
    }

    @Test
    void joinsRunWhileBothCollectionsAreWritten() throws Exception {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Auto> autos = db.collection(Auto.ID).name("auto").build();
            IndexedCollection<Dealer> dealers = db.collection(Dealer.ID).name("dealer").build();
            autos.addIndex(DuckDBIndex.onAttribute(Auto.DEALER));
            Random seed = new Random(8);
            for (int i = 0; i < 20; i++) {
                dealers.add(QueryFixture.randomDealer(seed, i));
            }
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                // Writer 1 adds cars whose dealer always exists; writer 2 rewrites dealers (ids 0..19 stay).
                Future<?> w1 = pool.submit(() -> {
                    Random r = new Random(1);
                    for (int i = 0; i < 300; i++) {
                        Auto a = QueryFixture.randomAuto(r, i, 20);
                        autos.add(new Auto(a.id(), a.maker(), a.dealerId() % 20, a.price(), a.used(), a.color(),
                                a.rating(), a.mileage(), a.tags()));
                    }
                });
                Future<?> w2 = pool.submit(() -> {
                    Random r = new Random(2);
                    while (!stop.get()) {
                        int id = r.nextInt(20);
                        Dealer old = dealers.retrieve(equal(Dealer.ID, id)).uniqueResult();
                        dealers.update(List.of(old), List.of(QueryFixture.randomDealer(r, id)));
                    }
                });
                Future<?> reader = pool.submit(() -> {
                    long last = 0;
                    while (!stop.get()) {
                        DuckDBJoin<Auto, Dealer> join = db.join(autos, dealers).on(Auto.DEALER, Dealer.ID);
                        long n;
                        try (Stream<Joined<Auto, Dealer>> s = join.stream()) {
                            n = s.peek(j -> assertEquals(j.left().dealerId(), j.right().id())).count();
                        }
                        // Cars are only added and every dealer always exists: the join never shrinks.
                        assertTrue(n >= last, n + " after " + last);
                        last = n;
                    }
                    return last;
                });
                w1.get(60, TimeUnit.SECONDS);
                stop.set(true);
                w2.get(60, TimeUnit.SECONDS);
                reader.get(60, TimeUnit.SECONDS);
            } finally {
                stop.set(true);
                pool.shutdownNow();
            }
            assertEquals(300, db.join(autos, dealers).on(Auto.DEALER, Dealer.ID).count());
        }
    }

    @Test
    void badInputIsRefusedClearly() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build();
             DuckDBDatabase other = DuckDBDatabase.builder().build()) {
            IndexedCollection<Auto> autos = db.collection(Auto.ID).name("auto").build();
            IndexedCollection<Dealer> dealers = db.collection(Dealer.ID).name("dealer").build();
            IndexedCollection<Dealer> elsewhere = other.collection(Dealer.ID).name("dealer").build();
            // An attribute DuckDB cannot see (blob layout, no index): named, with the fix.
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.join(autos, dealers).on(Auto.DEALER, Dealer.ID));
            assertTrue(e.getMessage().contains("'dealerId'") && e.getMessage().contains("DuckDBIndex")
                    && e.getMessage().contains("columnar"), e.getMessage());
            // existsIn within the database on an invisible attribute: refused the same way.
            e = assertThrows(IllegalArgumentException.class, () -> autos.retrieve(
                    existsIn(dealers, Auto.DEALER, Dealer.ID)));
            assertTrue(e.getMessage().contains("'dealerId'") && e.getMessage().contains("DuckDBIndex"), e.getMessage());
            // ... but across databases CQEngine evaluates it.
            autos.add(new Auto(9, "kia", 1, 1000L, false, null, 1.0, 10, List.of()));
            elsewhere.add(new Dealer(0, "d", "rome", 1, List.of()));
            elsewhere.add(new Dealer(1, "e", "rome", 1, List.of()));
            assertEquals(1, autos.retrieve(existsIn(elsewhere, Auto.DEALER, Dealer.ID)).size());
            autos.clear();
            // Two databases.
            e = assertThrows(IllegalArgumentException.class, () -> db.join(autos, elsewhere));
            assertTrue(e.getMessage().contains("another DuckDBDatabase"), e.getMessage());
            // No on().
            autos.addIndex(DuckDBIndex.onAttribute(Auto.DEALER));
            assertThrows(IllegalStateException.class, () -> db.join(autos, dealers).count());
            // A stream still open when the database closes is released and then refuses to be read.
            autos.add(QueryFixture.randomAuto(new Random(1), 1, 1));
            autos.add(QueryFixture.randomAuto(new Random(2), 2, 1));
            dealers.add(new Dealer(0, "d", "rome", 1, List.of()));
            dealers.add(new Dealer(1, "e", "rome", 1, List.of()));
            DuckDBJoin<Auto, Dealer> join = db.join(autos, dealers).on(Auto.DEALER, Dealer.ID);
            Stream<Joined<Auto, Dealer>> open = join.stream();
            db.close();
            Iterator<Joined<Auto, Dealer>> it = open.iterator();
            assertThrows(PersistenceClosedException.class, it::hasNext);
            assertThrows(PersistenceClosedException.class, join::count);
            assertThrows(PersistenceClosedException.class, () -> db.join(autos, dealers));
        }
    }

    @Test
    void aStreamClosedEarlyReleasesItsConnection() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().maxPooledConnections(0).build()) {
            IndexedCollection<Auto> autos = db.collection(Auto.ID).name("auto").build();
            IndexedCollection<Dealer> dealers = db.collection(Dealer.ID).name("dealer").build();
            autos.addIndex(DuckDBIndex.onAttribute(Auto.DEALER));
            Random r = new Random(3);
            List<Auto> all = new ArrayList<>();
            for (int i = 0; i < 5000; i++) {
                all.add(QueryFixture.randomAuto(r, i, 3));
            }
            autos.addAll(all);
            for (int i = 0; i < 3; i++) {
                dealers.add(QueryFixture.randomDealer(r, i));
            }
            for (int i = 0; i < 50; i++) {
                try (Stream<Joined<Auto, Dealer>> s = db.join(autos, dealers).on(Auto.DEALER, Dealer.ID).stream()) {
                    assertTrue(s.findFirst().isPresent());
                }
            }
            autos.removeAll(all.subList(0, 100));
            db.compact();   // would wait for, and fail on, a result still holding the table
            assertFalse(autos.isEmpty());
        }
    }
}
