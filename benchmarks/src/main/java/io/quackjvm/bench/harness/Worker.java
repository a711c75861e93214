package io.quackjvm.bench.harness;

import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The forked JVM: builds one configuration, runs the measurements on it, writes them to a properties file and
 * exits. {@code java ... Worker --config quack-file --mode quick --objects 100000 --out result.properties [--scaling]}
 */
public final class Worker {

    private final Configs.Config config;
    private final Mode mode;
    private final int n;
    private final boolean scalingOnly;
    private final Properties out = new Properties();
    private boolean failed;
    private Subject subject;

    private Worker(Configs.Config config, Mode mode, int n, boolean scalingOnly) {
        this.config = config;
        this.mode = mode;
        this.n = n;
        this.scalingOnly = scalingOnly;
    }

    public static void main(String[] args) throws Exception {
        String configName = null;
        String modeName = "quick";
        String outFile = null;
        Integer objects = null;
        boolean scaling = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--config": configName = args[++i]; break;
                case "--mode": modeName = args[++i]; break;
                case "--objects": objects = Integer.parseInt(args[++i]); break;
                case "--out": outFile = args[++i]; break;
                case "--scaling": scaling = true; break;
                default: throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
        }
        Mode mode = Mode.parse(modeName);
        Worker w = new Worker(Configs.get(configName), mode, objects == null ? mode.objects : objects, scaling);
        int rc = w.run();
        try (OutputStream os = Files.newOutputStream(Paths.get(outFile))) {
            w.out.store(os, "quackjvm benchmark worker: " + configName);
        }
        System.out.flush();
        System.exit(rc);
    }

    private void put(Metric m, double value) {
        out.setProperty(m.key, Double.toString(value));
    }

    private void note(Metric m, String note) {
        out.setProperty(m.key + ".note", note);
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Runs one measurement step; n/a and errors are recorded against every metric it would have produced. */
    private void step(String label, Step s, Metric... metrics) {
        long t0 = System.nanoTime();
        try {
            s.run();
            log(label + " done in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        } catch (Subject.NotApplicable e) {
            for (Metric m : metrics) {
                out.setProperty(m.key + ".na", e.getMessage());
            }
            log(label + ": n/a (" + e.getMessage() + ")");
        } catch (Throwable e) {
            failed = true;
            for (Metric m : metrics) {
                out.setProperty(m.key + ".error", String.valueOf(e));
            }
            System.err.println("[" + config.name + "] " + label + " FAILED");
            e.printStackTrace();
        }
    }

    private void log(String s) {
        System.out.println("[" + config.name + " n=" + n + "] " + s);
        System.out.flush();
    }

    private int run() throws Exception {
        out.setProperty("config", config.name);
        out.setProperty("objects", Integer.toString(n));
        out.setProperty("mode", mode.name().toLowerCase());
        out.setProperty("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        out.setProperty("jvm_args", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        out.setProperty("features", Configs.libraryFeatures());
        out.setProperty("baseline_rss_mb", Double.toString(rssMb()));
        out.setProperty("loadavg_start", loadAverage());
        Path dir = Files.createTempDirectory("quackjvm-bench-" + config.name + "-");
        try {
            try {
                subject = config.factory.create(dir);
            } catch (Subject.NotApplicable e) {
                out.setProperty("status", "skipped");
                out.setProperty("reason", e.getMessage());
                log("skipped: " + e.getMessage());
                return 0;
            }
            out.setProperty("description", subject.describe());
            out.setProperty("query_mode", String.valueOf(subject.queryMode()));
            measureAll();
            subject.close();
            subject = null;
        } catch (Throwable e) {
            failed = true;
            out.setProperty("error", String.valueOf(e));
            e.printStackTrace();
        } finally {
            if (subject != null) {
                try {
                    subject.close();
                } catch (Exception ignored) {
                    // already failing
                }
            }
            deleteRecursively(dir);
        }
        out.setProperty("loadavg_end", loadAverage());
        out.setProperty("status", failed ? "failed" : "ok");
        return failed ? 3 : 0;
    }

    private void measureAll() {
        // ---- load
        step("load", () -> {
            List<Car> cars = CarGenerator.cars(0, n);
            long ns = Timer.once(i -> subject.load(cars));
            put(Metric.LOAD_MS, ns / 1e6);
            put(Metric.LOAD_US_PER_OBJECT, ns / 1e3 / n);
        }, Metric.LOAD_MS, Metric.LOAD_US_PER_OBJECT);

        step("size", () -> {
            long used = subject.bytesUsed();
            if (used < 0) {
                out.setProperty(Metric.BYTES_USED_MB.key + ".na", "no getBytesUsed()");
            } else {
                put(Metric.BYTES_USED_MB, used / 1e6);
            }
            long disk = subject.bytesOnDisk();
            if (disk < 0) {
                out.setProperty(Metric.DISK_MB.key + ".na", "writes no files");
            } else {
                put(Metric.DISK_MB, disk / 1e6);
            }
        }, Metric.BYTES_USED_MB, Metric.DISK_MB);

        if (scalingOnly) {
            // Scaling forks measure point lookups too (the scaling table has them).
            step("lookup", this::measureLookup, Metric.LOOKUP_P50_US, Metric.LOOKUP_P90_US);
        }

        if (!scalingOnly) {
            step("memory", () -> {
                gc();
                put(Metric.HEAP_MB, heapMb());
                double rss = rssMb();
                double committed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() / 1e6;
                put(Metric.RSS_MB, rss);
                put(Metric.HEAP_COMMITTED_MB, committed);
                put(Metric.NATIVE_MB, rss - committed);
            }, Metric.HEAP_MB, Metric.RSS_MB, Metric.HEAP_COMMITTED_MB, Metric.NATIVE_MB);

            step("lookup", this::measureLookup, Metric.LOOKUP_P50_US, Metric.LOOKUP_P90_US);


            step("lookup-bytes", () -> {
                int[] keys = keys(50_000, 2);
                Timer.Stats s = Timer.measure(mode.lookupWarmup, 100, mode.lookupMax, mode.budgetMillis, i -> {
                    if (subject.lookupBytes(keys[i % keys.length]) == null) {
                        throw new IllegalStateException("lookupBytes returned null");
                    }
                });
                put(Metric.LOOKUP_BYTES_P50_US, s.median() / 1e3);
            }, Metric.LOOKUP_BYTES_P50_US);

            step("query-2%", () -> {
                int expected = subject.queryEqual(CarGenerator.manufacturer(7));
                out.setProperty("query2pct.rows", Integer.toString(expected));
                Timer.Stats s = Timer.measure(queryWarmup(2), 3, mode.queryMax, mode.budgetMillis,
                        i -> subject.queryEqual(CarGenerator.manufacturer(i % CarGenerator.MANUFACTURERS)));
                put(Metric.QUERY_2PCT_MS, s.median() / 1e6);
                note(Metric.QUERY_2PCT_MS, subject.queryMode() + ", " + s.count() + " runs, ~" + expected + " rows");
            }, Metric.QUERY_2PCT_MS);
        }

        step("count", () -> measureCount(Metric.COUNT_US), Metric.COUNT_US);
        step("range", () -> measureRange(Metric.RANGE_US), Metric.RANGE_US);

        if (!scalingOnly) {
            step("iterate", () -> {
                Timer.Stats s = Timer.measure(1, 2, 20, mode.budgetMillis, i -> {
                    long seen = subject.iterateAll();
                    if (seen != n) {
                        throw new IllegalStateException("iterated " + seen + " objects, expected " + n);
                    }
                });
                put(Metric.ITERATE_MS, s.median() / 1e6);
                note(Metric.ITERATE_MS, s.count() + " runs");
            }, Metric.ITERATE_MS);

            step("memory-end", () -> {
                gc();
                put(Metric.RSS_END_MB, rssMb());
            }, Metric.RSS_END_MB);
        }

        step("optimize", () -> {
            if (subject.queryMode() == null || subject.queryMode().equals("fallback scan") || !subject.optimize()) {
                throw new Subject.NotApplicable("no optimize(), or no secondary index to optimize");
            }
            measureCount(Metric.COUNT_OPT_US);
            measureRange(Metric.RANGE_OPT_US);
        }, Metric.COUNT_OPT_US, Metric.RANGE_OPT_US);

        if (!scalingOnly) {
            step("memory-optimize", () -> {
                gc();
                put(Metric.RSS_OPT_MB, rssMb());
            }, Metric.RSS_OPT_MB);

            step("single-add", () -> {
                int base = n;
                Timer.Stats s = Timer.measure(Math.min(20, mode.singleAdds / 5), 10, mode.singleAdds, mode.budgetMillis,
                        i -> subject.add(CarGenerator.car(base + i)));
                put(Metric.ADD_P50_US, s.median() / 1e3);
                put(Metric.ADD_P90_US, s.percentile(90) / 1e3);
                note(Metric.ADD_P50_US, s.count() + " adds");
            }, Metric.ADD_P50_US, Metric.ADD_P90_US);

            step("bulk-write", () -> {
                int count = Math.max(100, n / 10);
                List<Car> batch = CarGenerator.cars(n + 100_000, count);
                long ns = Timer.once(i -> subject.addAll(batch));
                put(Metric.BULK_US_PER_OBJECT, ns / 1e3 / count);
                note(Metric.BULK_US_PER_OBJECT, count + " objects in one addAll");
            }, Metric.BULK_US_PER_OBJECT);
        }
    }

    private void measureLookup() throws Exception {
        int[] keys = keys(50_000, 1);
        Timer.Stats s = Timer.measure(mode.lookupWarmup, 100, mode.lookupMax, mode.budgetMillis, i -> {
            int k = keys[i % keys.length];
            Car c = subject.lookup(k);
            if (c == null || c.getCarId() != k) {
                throw new IllegalStateException("lookup(" + k + ") returned " + c);
            }
        });
        put(Metric.LOOKUP_P50_US, s.median() / 1e3);
        put(Metric.LOOKUP_P90_US, s.percentile(90) / 1e3);
        out.setProperty("lookup.samples", Integer.toString(s.count()));
        note(Metric.LOOKUP_P50_US, s.count() + " lookups");
    }

    private void measureCount(Metric m) throws Exception {
        int rows = subject.count(CarGenerator.manufacturer(7));
        out.setProperty(m.key + ".rows", Integer.toString(rows));
        Timer.Stats s = Timer.measure(queryWarmup(3), 3, mode.queryMax * 5, mode.budgetMillis,
                i -> subject.count(CarGenerator.manufacturer(i % CarGenerator.MANUFACTURERS)));
        put(m, s.median() / 1e3);
        note(m, subject.queryMode() + ", " + s.count() + " runs");
    }

    private void measureRange(Metric m) throws Exception {
        double width = 40.0 * (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE) / n;
        SplittableRandom r = new SplittableRandom(42);
        double[] lows = new double[1024];
        for (int i = 0; i < lows.length; i++) {
            lows[i] = CarGenerator.MIN_PRICE + r.nextDouble() * (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE - width);
        }
        long[] rows = new long[2];
        Timer.Stats s = Timer.measure(queryWarmup(3), 3, mode.queryMax * 5, mode.budgetMillis, i -> {
            double lo = lows[i % lows.length];
            rows[0] += subject.range(lo, lo + width);
            rows[1]++;
        });
        put(m, s.median() / 1e3);
        note(m, subject.queryMode() + ", " + s.count() + " runs, ~" + Math.round((double) rows[0] / rows[1]) + " rows each");
    }

    /** A fallback scan deserialises the whole collection per query: one untimed run is warm-up enough. */
    private int queryWarmup(int indexed) {
        return "fallback scan".equals(subject.queryMode()) ? 1 : indexed;
    }

    private int[] keys(int count, long salt) {
        SplittableRandom r = new SplittableRandom(CarGenerator.SEED + salt);
        int[] keys = new int[count];
        for (int i = 0; i < count; i++) {
            keys[i] = r.nextInt(n);
        }
        return keys;
    }

    /** The 1-minute load average (from /proc/loadavg): how busy the shared machine was. */
    public static String loadAverage() {
        try {
            return Files.readString(Paths.get("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /**
     * Collects garbage, then waits (up to 5 s, not in tiny mode) for RSS to settle: G1 gives uncommitted heap back
     * to the OS from a background thread after the collection, so RSS read at once still counts it.
     */
    private void gc() throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(mode == Mode.TINY ? 10 : 100);
        }
        if (mode == Mode.TINY) {
            return;
        }
        settledRssMb(20);
    }

    /**
     * RSS once it has settled: {@link #rssMb()} read every 250 ms until two reads differ by less than 1% (or 1 MB),
     * at most {@code reads} times after the first; the last read when it never settles. Collect garbage first: G1
     * gives uncommitted heap back to the OS from a background thread after a collection.
     */
    public static double settledRssMb(int reads) throws InterruptedException {
        double last = rssMb();
        for (int i = 0; i < reads; i++) {
            Thread.sleep(250);
            double now = rssMb();
            if (Math.abs(now - last) < Math.max(1.0, last * 0.01)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    static double heapMb() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1e6;
    }

    /** VmRSS from /proc/self/status, in MB (NaN where there is no /proc). */
    public static double rssMb() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.trim().split("\\s+");
                    return Long.parseLong(parts[1]) * 1024 / 1e6;
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }

    /** Deletes {@code dir} and everything under it, as far as it can (benchmark scratch space). */
    public static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
