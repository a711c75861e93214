package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.navigable.NavigableIndex;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

import static com.googlecode.cqengine.query.QueryFactory.between;

/**
 * Issue #15's targets, side by side in one JVM, interleaved round by round: the sum of price over the ~20% of cars
 * in a price range (CQEngine on the heap with a NavigableIndex, retrieving and summing in Java, against the typed
 * API and the same SQL through database.query), the group-by manufacturer with count and avg(price) (the heap by
 * iteration), and the median price. Both layouts, one file database, N cars (default 1,000,000), R rounds
 * (default 15). Prints a markdown table of medians. Results: benchmarks/results/current/answers.md (earlier: archive/answers/).
 */
public final class AnswersProbe {

    private AnswersProbe() {
    }

    private static final Map<String, List<Long>> TIMES = new LinkedHashMap<>();
    private static final Map<String, Object> ANSWERS = new LinkedHashMap<>();

    private static void time(String name, Supplier<Object> work) {
        long t0 = System.nanoTime();
        Object answer = work.get();
        long t = System.nanoTime() - t0;
        TIMES.computeIfAbsent(name, k -> new ArrayList<>()).add(t);
        ANSWERS.put(name, answer);
    }

    private static double medianMs(String name) {
        long[] t = TIMES.get(name).stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(t);
        return t[t.length / 2] / 1e6;
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        List<Car> data = CarGenerator.cars(0, n);
        IndexedCollection<Car> heap = new ConcurrentIndexedCollection<>();
        heap.addIndex(NavigableIndex.onAttribute(Car.PRICE));
        heap.addAll(data);
        Path dir = Files.createTempDirectory("answers-probe");
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("answers.duckdb")).build()) {
            IndexedCollection<Car> blob = db.collection(Car.CAR_ID).name("car").build();
            blob.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            blob.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
            IndexedCollection<Car> columnar = db.collection(Car.CAR_ID).name("car_columnar")
                    .columnarLayout(ColumnarLayout.reflective(Car.class)).build();
            columnar.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
            long l0 = System.nanoTime();
            blob.addAll(data);
            columnar.addAll(data);
            db.optimize();
            System.err.printf("loaded %d cars into both layouts in %.1f s%n", n, (System.nanoTime() - l0) / 1e9);
            Random r = new Random(1);
            for (int round = 0; round < rounds; round++) {
                // ~20% of the uniform [5000, 100000) prices, at a different place each round
                double lo = 5_000 + r.nextInt(70_000);
                double hi = lo + 19_000;
                time("sum range: heap (NavigableIndex, sum in Java)", () -> {
                    double s = 0;
                    try (ResultSet<Car> rs = heap.retrieve(between(Car.PRICE, lo, hi))) {
                        for (Car c : rs) {
                            s += c.getPrice();
                        }
                    }
                    return s;
                });
                time("sum range: blob typed", () -> db.from(blob).where(between(Car.PRICE, lo, hi)).sum(Car.PRICE));
                time("sum range: blob SQL", () -> db.query("SELECT sum(price) FROM car WHERE price BETWEEN ? AND ?",
                        lo, hi).scalar(Double.class));
                time("sum range: columnar typed",
                        () -> db.from(columnar).where(between(Car.PRICE, lo, hi)).sum(Car.PRICE));
                time("sum range: columnar SQL", () -> db.query("SELECT sum(price) FROM car_columnar WHERE price "
                        + "BETWEEN ? AND ?", lo, hi).scalar(Double.class));

                time("group-by: heap iteration (count + avg)", () -> {
                    Map<String, double[]> g = new HashMap<>();
                    for (Car c : heap) {
                        double[] a = g.computeIfAbsent(c.getManufacturer(), k -> new double[2]);
                        a[0]++;
                        a[1] += c.getPrice();
                    }
                    return g.size();
                });
                time("group-by: blob typed count() + avg()", () -> db.from(blob).groupBy(Car.MANUFACTURER).count().size()
                        + db.from(blob).groupBy(Car.MANUFACTURER).avg(Car.PRICE).size());
                time("group-by: blob typed avg() alone", () -> db.from(blob).groupBy(Car.MANUFACTURER).avg(Car.PRICE)
                        .size());
                time("group-by: blob SQL count + avg (one statement)", () -> db.query("SELECT manufacturer, count(*), "
                        + "avg(price) FROM car GROUP BY 1").list(String.class).size());
                time("group-by: blob SQL avg alone", () -> db.query("SELECT manufacturer, avg(price) FROM car GROUP BY 1")
                        .list(String.class).size());
                time("group-by: columnar typed count() + avg()", () -> db.from(columnar).groupBy(Car.MANUFACTURER)
                        .count().size() + db.from(columnar).groupBy(Car.MANUFACTURER).avg(Car.PRICE).size());
                time("group-by: columnar typed avg() alone", () -> db.from(columnar).groupBy(Car.MANUFACTURER)
                        .avg(Car.PRICE).size());
                time("group-by: columnar SQL count + avg (one statement)", () -> db.query("SELECT manufacturer, "
                        + "count(*), avg(price) FROM car_columnar GROUP BY 1").list(String.class).size());
                time("group-by: columnar SQL avg alone", () -> db.query("SELECT manufacturer, avg(price) FROM "
                        + "car_columnar GROUP BY 1").list(String.class).size());

                time("median: heap (sort all prices)", () -> {
                    double[] p = new double[heap.size()];
                    int i = 0;
                    for (Car c : heap) {
                        p[i++] = c.getPrice();
                    }
                    Arrays.sort(p);
                    return p[(p.length + 1) / 2 - 1];
                });
                time("median: blob typed", () -> db.from(blob).median(Car.PRICE).orElseThrow());
                time("median: blob SQL", () -> db.query("SELECT quantile_disc(price, 0.5) FROM car")
                        .scalar(Double.class));
                time("median: columnar typed", () -> db.from(columnar).median(Car.PRICE).orElseThrow());
                time("median: columnar SQL", () -> db.query("SELECT quantile_disc(price, 0.5) FROM car_columnar")
                        .scalar(Double.class));
            }
        }
        System.out.println("| measurement (" + n + " cars, " + rounds + " rounds interleaved) | median ms | last answer |");
        System.out.println("|---|---:|---|");
        for (String name : TIMES.keySet()) {
            System.out.printf("| %s | %.2f | %s |%n", name, medianMs(name), ANSWERS.get(name));
        }
    }
}
