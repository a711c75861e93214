package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.persistence.Persistence;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static com.googlecode.cqengine.query.QueryFactory.equal;

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
        Path a = null;
        Path b = null;
        int objects = 1_000_000;
        int loads = 6;
        int loadObjects = 200_000;
        int lookups = 20_000;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--a" -> a = Path.of(args[++i]);
                case "--b" -> b = Path.of(args[++i]);
                case "--objects" -> objects = Integer.parseInt(args[++i]);
                case "--loads" -> loads = Integer.parseInt(args[++i]);
                case "--load-objects" -> loadObjects = Integer.parseInt(args[++i]);
                case "--lookups" -> lookups = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
        }
        if (a == null || b == null) {
            throw new IllegalArgumentException("--a and --b name the two built checkouts");
        }
        Build[] builds = {new Build("a", a), new Build("b", b)};
        Path dir = Files.createTempDirectory("quackjvm-two-builds-");
        StringBuilder report = new StringBuilder();
        report.append("# Two builds in one JVM, interleaved\n\n")
                .append(Instant.now()).append(", load average ").append(loadAverage()).append(", Java ")
                .append(System.getProperty("java.version")).append("\n\n- a: ").append(a).append("\n- b: ").append(b)
                .append("\n\n");

        List<Car> loadCars = CarGenerator.cars(0, loadObjects);
        double[][] loadMs = new double[2][loads];
        for (int round = 0; round < loads; round++) {
            for (int k = 0; k < 2; k++) {
                int side = (round + k) % 2;
                Path file = dir.resolve("load-" + builds[side].name + "-" + round + ".duckdb");
                try (Opened o = builds[side].open(file)) {
                    long t0 = System.nanoTime();
                    o.cars.addAll(loadCars);
                    loadMs[side][round] = (System.nanoTime() - t0) / 1e6;
                }
                Files.deleteIfExists(file);
            }
        }
        loadCars = null;

        List<Car> all = CarGenerator.cars(0, objects);
        try (Opened oa = builds[0].open(dir.resolve("a.duckdb")); Opened ob = builds[1].open(dir.resolve("b.duckdb"))) {
            oa.cars.addAll(all);
            ob.cars.addAll(all);
            all = null;
            Opened[] opened = {oa, ob};
            SplittableRandom random = new SplittableRandom(CarGenerator.SEED + 11);
            int warm = Math.min(2_000, lookups / 5);
            long[][] lookupNs = new long[2][lookups];
            for (int i = -warm; i < lookups; i++) {
                int key = random.nextInt(objects);
                for (int k = 0; k < 2; k++) {
                    int side = (i + k) % 2 == 0 ? 0 : 1;
                    long t0 = System.nanoTime();
                    Car car = opened[side].cars.retrieve(equal(Car.CAR_ID, key)).uniqueResult();
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
                    opened[side].cars.add(extra.get(i));
                    addNs[side][i] = System.nanoTime() - t0;
                }
            }
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
        report.append("\nload average at the end ").append(loadAverage()).append('\n');
        System.out.print(report);
        if (out != null) {
            Files.writeString(out, report);
        }
    }

    /** One checkout's modules, loaded on their own. */
    private static final class Build {
        final String name;
        final ClassLoader loader;

        Build(String name, Path checkout) throws Exception {
            this.name = name;
            List<URL> urls = new ArrayList<>();
            for (String m : MODULES) {
                Path classes = checkout.resolve("modules").resolve(m).resolve("target/classes");
                if (!Files.isDirectory(classes)) {
                    throw new IllegalArgumentException(classes + " is missing: build the checkout first");
                }
                urls.add(classes.toUri().toURL());
            }
            this.loader = new URLClassLoader(urls.toArray(URL[]::new), TwoBuilds.class.getClassLoader());
        }

        /** {@code DuckDBPersistence.builder(Car.CAR_ID).file(file).build()} of this build. */
        @SuppressWarnings("unchecked")
        Opened open(Path file) throws Exception {
            Thread t = Thread.currentThread();
            ClassLoader before = t.getContextClassLoader();
            t.setContextClassLoader(loader); // the library finds its providers through ServiceLoader
            try {
                Class<?> type = Class.forName("io.quackjvm.api.DuckDBPersistence", true, loader);
                Object builder = type.getMethod("builder", SimpleAttribute.class).invoke(null, Car.CAR_ID);
                builder.getClass().getMethod("file", Path.class).invoke(builder, file);
                Object persistence = builder.getClass().getMethod("build").invoke(builder);
                return new Opened((Persistence<Car, Integer>) persistence);
            } finally {
                t.setContextClassLoader(before);
            }
        }
    }

    private static final class Opened implements AutoCloseable {
        final Persistence<Car, Integer> persistence;
        final IndexedCollection<Car> cars;

        Opened(Persistence<Car, Integer> persistence) {
            this.persistence = persistence;
            this.cars = new ConcurrentIndexedCollection<>(persistence);
        }

        @Override
        public void close() throws Exception {
            ((AutoCloseable) persistence).close();
        }
    }

    private static void row(StringBuilder r, String what, Object a, Object b) {
        String ratio = a instanceof Double x && b instanceof Double y ? String.format("%.3f", y / x) : "";
        r.append("| ").append(what).append(" | ").append(format(a)).append(" | ").append(format(b)).append(" | ")
                .append(ratio).append(" |\n");
    }

    private static String format(Object v) {
        return v instanceof Double d ? String.format("%.1f", d) : String.valueOf(v);
    }

    private static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double percentile(long[] values, double p) {
        long[] s = values.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.floor(p * s.length))];
    }

    private static double[] round1(double[] values) {
        return Arrays.stream(values).map(v -> Math.round(v * 10) / 10.0).toArray();
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0];
        } catch (Exception e) {
            return "unknown";
        }
    }

    private TwoBuilds() {
    }
}
