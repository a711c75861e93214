package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.disk.DiskIndex;
import com.googlecode.cqengine.index.hash.HashIndex;
import com.googlecode.cqengine.index.navigable.NavigableIndex;
import com.googlecode.cqengine.index.unique.UniqueIndex;
import com.googlecode.cqengine.persistence.disk.DiskPersistence;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ArrowSupport;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.Joined;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;
import io.quackjvm.bench.model.Dealer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.existsIn;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;

/**
 * Issue #14's targets, side by side in one JVM, interleaved round by round (medians):
 * <ol>
 *   <li>{@code and} of three indexed conditions (manufacturer, price range, year; ~200 matches of N cars) through
 *   a {@code DuckDBDatabase} collection (one statement) against the same query through CQEngine's planner on the
 *   same DuckDBIndexes (a plain ConcurrentIndexedCollection over a DuckDBPersistence), CQEngine DiskPersistence
 *   with three DiskIndexes, and the heap (for reference);</li>
 *   <li>existsIn: the ~20% of cars under a price (~200k at 1M) whose dealer has more than two stars, pushed down
 *   (one semi-join) against CQEngine on the heap, and against CQEngine's existsIn over our collections without
 *   push-down, which runs one foreign query per car: measured on ~0.2% of the cars and scaled linearly;</li>
 *   <li>a typed join of the same ~20% of the cars to their dealers (every pair materialised as two objects)
 *   against a hash join written by hand over the heap collections.</li>
 * </ol>
 * Arguments: cars (default 1,000,000), rounds (default 11). Dealers: 50,000. The DuckDB database is a file.
 * Results: benchmarks/results/current/query-pushdown.md (earlier: archive/query-pushdown/).
 */
public final class QueryPushDownProbe {

    private QueryPushDownProbe() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 11;
        Path dir = Files.createTempDirectory("query-pushdown");
        System.out.printf("cars=%d dealers=%d rounds=%d Arrow=%s%n", n, Dealer.DEALERS, rounds,
                ArrowSupport.isAvailable() ? "available" : "unavailable");
        List<Dealer> dealerList = Dealer.all();
        long t0 = System.nanoTime();

        try (DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("shop.duckdb")).build()) {
            // The collection under test, and a plain CQEngine collection over a persistence of the same database.
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            IndexedCollection<Dealer> dealers = db.collection(Dealer.DEALER_ID).name("dealer").build();
            DuckDBPersistence<Car, Integer> plainPersistence = db.collection(Car.CAR_ID).name("car_plain").buildPersistence();
            IndexedCollection<Car> plain = new ConcurrentIndexedCollection<>(plainPersistence);
            DuckDBPersistence<Dealer, Integer> plainDealerPersistence = db.collection(Dealer.DEALER_ID).name("dealer_plain").buildPersistence();
            IndexedCollection<Dealer> plainDealers = new ConcurrentIndexedCollection<>(plainDealerPersistence);
            for (IndexedCollection<Car> c : List.of(cars, plain)) {
                c.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
                c.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
                c.addIndex(DuckDBIndex.onAttribute(Car.YEAR));
                c.addIndex(DuckDBIndex.onAttribute(Dealer.CAR_DEALER));
            }
            dealers.addIndex(DuckDBIndex.onAttribute(Dealer.STARS));
            plainDealers.addIndex(DuckDBIndex.onAttribute(Dealer.STARS));

            IndexedCollection<Car> heap = new ConcurrentIndexedCollection<>();
            heap.addIndex(UniqueIndex.onAttribute(Car.CAR_ID));
            heap.addIndex(HashIndex.onAttribute(Car.MANUFACTURER));
            heap.addIndex(NavigableIndex.onAttribute(Car.PRICE));
            heap.addIndex(HashIndex.onAttribute(Car.YEAR));
            IndexedCollection<Dealer> heapDealers = new ConcurrentIndexedCollection<>();
            heapDealers.addIndex(UniqueIndex.onAttribute(Dealer.DEALER_ID));
            heapDealers.addIndex(NavigableIndex.onAttribute(Dealer.STARS));

            DiskPersistence<Car, Integer> diskPersistence = DiskPersistence.onPrimaryKeyInFile(Car.CAR_ID,
                    dir.resolve("cqengine.db").toFile());
            IndexedCollection<Car> disk = new ConcurrentIndexedCollection<>(diskPersistence);
            disk.addIndex(DiskIndex.onAttribute(Car.MANUFACTURER));
            disk.addIndex(DiskIndex.onAttribute(Car.PRICE));
            disk.addIndex(DiskIndex.onAttribute(Car.YEAR));

            for (int from = 0; from < n; from += 100_000) {
                List<Car> chunk = CarGenerator.cars(from, Math.min(100_000, n - from));
                cars.addAll(chunk);
                plain.addAll(chunk);
                heap.addAll(chunk);
                disk.addAll(chunk);
            }
            dealers.addAll(dealerList);
            plainDealers.addAll(dealerList);
            heapDealers.addAll(dealerList);
            db.optimize();
            System.out.printf("loaded in %.0f s%n", (System.nanoTime() - t0) / 1e9);

            Query<Car> and3 = and(equal(Car.MANUFACTURER, CarGenerator.manufacturer(7)), between(Car.PRICE, 30_000.0, 60_000.0),
                    equal(Car.YEAR, 2010));
            double cut = CarGenerator.MIN_PRICE + (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE) * 0.2;
            double smallCut = CarGenerator.MIN_PRICE + (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE) * 0.002;
            Query<Car> cheap = lessThan(Car.PRICE, cut);
            Query<Dealer> good = greaterThan(Dealer.STARS, 2);

            Map<String, LongSupplier> ops = new LinkedHashMap<>();
            ops.put("and3 quack (one statement)", () -> count(cars, and3));
            ops.put("and3 CQEngine planner on DuckDBIndexes", () -> count(plain, and3));
            ops.put("and3 DiskPersistence + DiskIndex", () -> count(disk, and3));
            ops.put("and3 heap", () -> count(heap, and3));
            ops.put("existsIn quack (semi-join)", () -> count(cars, and(cheap, existsIn(dealers, Dealer.CAR_DEALER, Dealer.DEALER_ID, good))));
            ops.put("existsIn heap", () -> count(heap, and(cheap, existsIn(heapDealers, Dealer.CAR_DEALER, Dealer.DEALER_ID, good))));
            ops.put("existsIn no push-down, 1/100 of the cars", () -> count(plain,
                    and(lessThan(Car.PRICE, smallCut), existsIn(plainDealers, Dealer.CAR_DEALER, Dealer.DEALER_ID, good))));
            ops.put("existsIn quack, 1/100 of the cars", () -> count(cars,
                    and(lessThan(Car.PRICE, smallCut), existsIn(dealers, Dealer.CAR_DEALER, Dealer.DEALER_ID, good))));
            ops.put("join quack (stream of pairs)", () -> {
                try (Stream<Joined<Car, Dealer>> s = db.join(cars, dealers).on(Dealer.CAR_DEALER, Dealer.DEALER_ID)
                        .whereLeft(cheap).stream()) {
                    return s.mapToLong(j -> j.left().getCarId() + j.right().dealerId()).count();
                }
            });
            ops.put("join heap (hand-written hash join)", () -> {
                Map<Integer, Dealer> byId = new HashMap<>();
                for (Dealer d : heapDealers) {
                    byId.put(d.dealerId(), d);
                }
                List<Object[]> pairs = new ArrayList<>();
                try (ResultSet<Car> rs = heap.retrieve(cheap)) {
                    for (Car c : rs) {
                        Dealer d = byId.get(Dealer.dealerOf(c.getCarId()));
                        if (d != null) {
                            pairs.add(new Object[]{c, d});
                        }
                    }
                }
                return pairs.size();
            });
            ops.put("join quack count()", () -> db.join(cars, dealers).on(Dealer.CAR_DEALER, Dealer.DEALER_ID)
                    .whereLeft(cheap).count());
            // The floor under the stream of pairs: only reading its left-hand cars as objects (one statement, no
            // join, no dealers). A stream of pairs cannot cost less than this.
            ops.put("floor: the join's left cars read as objects, no join", () -> count(cars, cheap));

            Map<String, long[]> times = new LinkedHashMap<>();
            Map<String, Long> results = new LinkedHashMap<>();
            for (String k : ops.keySet()) {
                times.put(k, new long[rounds]);
            }
            for (int round = -2; round < rounds; round++) {
                for (Map.Entry<String, LongSupplier> e : ops.entrySet()) {
                    long s = System.nanoTime();
                    long r = e.getValue().getAsLong();
                    long t = System.nanoTime() - s;
                    Long before = results.put(e.getKey(), r);
                    if (before != null && before != r) {
                        throw new IllegalStateException(e.getKey() + " changed its answer: " + before + " then " + r);
                    }
                    if (round >= 0) {
                        times.get(e.getKey())[round] = t;
                    }
                }
            }
            System.out.println();
            System.out.println("| operation | results | median ms | min ms | max ms |");
            System.out.println("|---|---:|---:|---:|---:|");
            Map<String, Double> med = new LinkedHashMap<>();
            for (Map.Entry<String, long[]> e : times.entrySet()) {
                long[] t = e.getValue().clone();
                Arrays.sort(t);
                med.put(e.getKey(), t[t.length / 2] / 1e6);
                System.out.printf("| %s | %d | %.2f | %.2f | %.2f |%n", e.getKey(), results.get(e.getKey()),
                        t[t.length / 2] / 1e6, t[0] / 1e6, t[t.length - 1] / 1e6);
            }
            System.out.println();
            System.out.printf("and3: quack / planner-on-DuckDBIndexes = %.3f (target <= 0.25)%n",
                    med.get("and3 quack (one statement)") / med.get("and3 CQEngine planner on DuckDBIndexes"));
            System.out.printf("and3: quack / DiskPersistence = %.3f (target <= 0.5)%n",
                    med.get("and3 quack (one statement)") / med.get("and3 DiskPersistence + DiskIndex"));
            System.out.printf("existsIn: quack / heap = %.3f (target <= 0.5)%n",
                    med.get("existsIn quack (semi-join)") / med.get("existsIn heap"));
            System.out.printf("existsIn: no push-down scaled x100 / quack = %.0f (target >= 100)%n",
                    med.get("existsIn no push-down, 1/100 of the cars") * 100 / med.get("existsIn quack (semi-join)"));
            System.out.printf("join: quack / heap hash join = %.3f (target <= 0.5)%n",
                    med.get("join quack (stream of pairs)") / med.get("join heap (hand-written hash join)"));
            System.out.printf("join floor: left cars read as objects alone / heap hash join = %.3f%n",
                    med.get("floor: the join's left cars read as objects, no join")
                            / med.get("join heap (hand-written hash join)"));
            System.out.printf("results check: existsIn quack=%d heap=%d; join quack=%d heap=%d%n",
                    results.get("existsIn quack (semi-join)"), results.get("existsIn heap"),
                    results.get("join quack (stream of pairs)"), results.get("join heap (hand-written hash join)"));
            diskPersistence.close();
        }
    }

    private static long count(IndexedCollection<Car> c, Query<Car> q) {
        long n = 0;
        try (ResultSet<Car> rs = c.retrieve(q)) {
            for (Car car : rs) {
                n += 1 + (car.getCarId() & 0);
            }
        }
        return n;
    }
}
