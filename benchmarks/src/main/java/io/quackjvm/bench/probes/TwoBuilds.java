package io.quackjvm.bench.probes;

import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static io.quackjvm.bench.probes.Checkout.median;
import static io.quackjvm.bench.probes.Checkout.round1;

/**
 * The library of two checkouts in one JVM, interleaved: each checkout's modules in a class loader of their own over
 * the same third-party jars (DuckDB's native library is loaded once), so a sample of one build is always taken next
 * to a sample of the other, on the same data and under the same load of the machine. Separate JVMs per build swing
 * more than the differences worth finding (DuckDB's scheduling levels). Blob layout, file-backed, primary key only:
 * loads ({@code addAll} of fresh files, alternating which build goes first), point lookups (each key looked up in
 * both builds back to back, the order alternating) and single adds of new keys (likewise).
 *
 * <p>Run it on a classpath of the benchmark classes and the third-party jars only, without quackjvm's modules:
 * {@code java -cp <classpath> io.quackjvm.bench.probes.TwoBuilds --a DIR --b DIR [--objects N] [--loads N]
 * [--lookups N] [--out file.md]}, where each DIR is a built checkout (its {@code modules/}{@code /target/classes}).
 */
public final class TwoBuilds {

    private static final List<String> MODULES = List.of("quackjvm", "quackjvm-api", "quackjvm-storage",
            "quackjvm-reader-jdbc", "quackjvm-concurrency", "quackjvm-index");

    public static void main(String[] args) throws Exception {
        Checkout.Comparison run = new Checkout.Comparison(args,
                Map.of("--objects", 1_000_000, "--loads", 6, "--load-objects", 200_000, "--lookups", 20_000), MODULES,
                "quackjvm-two-builds-", "Two builds in one JVM, interleaved");
        run.report.append("\n\n");
        Checkout[] builds = run.builds;
        int objects = run.number("--objects");
        int loads = run.number("--loads");
        int loadObjects = run.number("--load-objects");
        int lookups = run.number("--lookups");

        List<Car> loadCars = CarGenerator.cars(0, loadObjects);
        double[][] loadMs = new double[2][loads];
        for (int round = 0; round < loads; round++) {
            for (int k = 0; k < 2; k++) {
                int side = (round + k) % 2;
                Path file = run.dir.resolve("load-" + builds[side].name + "-" + round + ".duckdb");
                try (Checkout.Opened<Car> o = open(builds[side], file)) {
                    long t0 = System.nanoTime();
                    o.collection.addAll(loadCars);
                    loadMs[side][round] = (System.nanoTime() - t0) / 1e6;
                }
                Files.deleteIfExists(file);
            }
        }
        loadCars = null;

        List<Car> all = CarGenerator.cars(0, objects);
        try (Checkout.Opened<Car> oa = open(builds[0], run.dir.resolve("a.duckdb"));
                Checkout.Opened<Car> ob = open(builds[1], run.dir.resolve("b.duckdb"))) {
            oa.collection.addAll(all);
            ob.collection.addAll(all);
            all = null;
            @SuppressWarnings("unchecked")
            Checkout.Opened<Car>[] opened = new Checkout.Opened[] {oa, ob};
            SplittableRandom random = new SplittableRandom(CarGenerator.SEED + 11);
            int warm = Math.min(2_000, lookups / 5);
            long[][] lookupNs = new long[2][lookups];
            for (int i = -warm; i < lookups; i++) {
                int key = random.nextInt(objects);
                for (int k = 0; k < 2; k++) {
                    int side = (i + k) % 2 == 0 ? 0 : 1;
                    long t0 = System.nanoTime();
                    Car car = opened[side].collection.retrieve(equal(Car.CAR_ID, key)).uniqueResult();
                    long t = System.nanoTime() - t0;
                    if (car == null || car.getCarId() != key) {
                        throw new IllegalStateException(builds[side].name + " did not find car " + key);
                    }
                    if (i >= 0) {
                        lookupNs[side][i] = t;
                    }
                }
            }
            // Single adds of new keys, each build in turn.
            int adds = Math.max(1, lookups / 4);
            List<Car> extra = CarGenerator.cars(objects, adds);
            long[][] addNs = new long[2][adds];
            for (int i = 0; i < adds; i++) {
                for (int k = 0; k < 2; k++) {
                    int side = (i + k) % 2 == 0 ? 0 : 1;
                    long t0 = System.nanoTime();
                    opened[side].collection.add(extra.get(i));
                    addNs[side][i] = System.nanoTime() - t0;
                }
            }
            StringBuilder report = run.report;
            report.append("| measure | a | b | b ÷ a |\n|---|--:|--:|--:|\n");
            row(report, "load of " + loadObjects + " cars, ms (median of " + loads + ")", median(loadMs[0]),
                    median(loadMs[1]));
            row(report, "load, ms (each round)", Arrays.toString(round1(loadMs[0])), Arrays.toString(round1(loadMs[1])));
            row(report, "point lookup at " + objects + ", µs p50 (" + lookups + " each)",
                    percentile(lookupNs[0], 0.5) / 1e3, percentile(lookupNs[1], 0.5) / 1e3);
            row(report, "point lookup, µs p90", percentile(lookupNs[0], 0.9) / 1e3, percentile(lookupNs[1], 0.9) / 1e3);
            row(report, "point lookup, µs p99", percentile(lookupNs[0], 0.99) / 1e3, percentile(lookupNs[1], 0.99) / 1e3);
            row(report, "single add of a new key, µs p50 (" + adds + " each)", percentile(addNs[0], 0.5) / 1e3,
                    percentile(addNs[1], 0.5) / 1e3);
            row(report, "single add, µs p90", percentile(addNs[0], 0.9) / 1e3, percentile(addNs[1], 0.9) / 1e3);
        }
        run.finish();
    }

    /** {@code DuckDBPersistence.builder(Car.CAR_ID).file(file).build()} of {@code build}. */
    private static Checkout.Opened<Car> open(Checkout build, Path file) throws Exception {
        return build.open(Car.CAR_ID, file, (b, builder) -> { });
    }

    private static void row(StringBuilder r, String what, Object a, Object b) {
        String ratio = a instanceof Double x && b instanceof Double y ? String.format("%.3f", y / x) : "";
        r.append("| ").append(what).append(" | ").append(format(a)).append(" | ").append(format(b)).append(" | ")
                .append(ratio).append(" |\n");
    }

    private static String format(Object v) {
        return v instanceof Double d ? String.format("%.1f", d) : String.valueOf(v);
    }

    private static double percentile(long[] values, double p) {
        long[] s = values.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.floor(p * s.length))];
    }

    private TwoBuilds() {
    }
}
