package io.quackjvm.bench.harness;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;

import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * quackjvm against the raw DuckDB JDBC floor <em>in one JVM, interleaved</em>: each sample times our call and
 * the raw call back to back (alternating which goes first) on the same key, so CPU contention from a shared
 * machine hits both sides equally. This is the fairest form of the "within 1.3x of raw JDBC" ratio.
 * Both stores hold the same N objects (quackjvm BLOB layout, primary key only; the raw floor's identical table).
 * {@code java ... Interleaved --storage file|memory --mode quick --objects N --out file.properties}
 */
public final class Interleaved {

    public static void main(String[] args) throws Exception {
        String storage = "file";
        Mode mode = Mode.QUICK;
        Integer objects = null;
        String outFile = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--storage": storage = args[++i]; break;
                case "--mode": mode = Mode.parse(args[++i]); break;
                case "--objects": objects = Integer.parseInt(args[++i]); break;
                case "--out": outFile = args[++i]; break;
                default: throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
        }
        int n = objects == null ? mode.objects : objects;
        boolean file = storage.equals("file");
        Properties out = new Properties();
        out.setProperty("storage", storage);
        out.setProperty("objects", Integer.toString(n));
        out.setProperty("loadavg_start", Worker.loadAverage());
        Path dir = Files.createTempDirectory("quackjvm-bench-interleaved-");
        int rc = 0;
        DuckDBPersistence<Car, Integer> persistence = null;
        RawJdbcSubject raw = null;
        try {
            DuckDBPersistence.Builder<Car, Integer> b = DuckDBPersistence.builder(Car.CAR_ID);
            if (file) {
                b.file(dir.resolve("quack.duckdb"));
            } else {
                b.inMemory();
            }
            persistence = b.build();
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
            final RawJdbcSubject floor = new RawJdbcSubject(file ? Files.createDirectories(dir.resolve("raw")) : null, null);
            raw = floor;
            List<Car> all = CarGenerator.cars(0, n);
            cars.addAll(all);
            floor.load(all);
            all = null;

            SplittableRandom r = new SplittableRandom(CarGenerator.SEED + 7);
            int max = mode.lookupMax * 2;
            long[] ours = new long[max];
            long[] theirs = new long[max];
            long[] bytes = new long[max];
            int warm = mode.lookupWarmup;
            long budget = mode.budgetMillis * 3_000_000L;
            long start = System.nanoTime();
            int samples = 0;
            for (int i = 0; i < warm + max; i++) {
                int k = r.nextInt(n);
                long a;
                long c;
                long d;
                if ((i & 1) == 0) {
                    a = timeOurs(cars, k);
                    c = timeRaw(raw, k);
                    d = timeBytes(raw, k);
                } else {
                    d = timeBytes(raw, k);
                    c = timeRaw(raw, k);
                    a = timeOurs(cars, k);
                }
                if (i >= warm) {
                    ours[samples] = a;
                    theirs[samples] = c;
                    bytes[samples] = d;
                    samples++;
                    if (samples >= 200 && System.nanoTime() - start > budget) {
                        break;
                    }
                }
            }
            put(out, "lookup.quack", Arrays.copyOf(ours, samples));
            put(out, "lookup.raw", Arrays.copyOf(theirs, samples));
            put(out, "lookup.raw_bytes", Arrays.copyOf(bytes, samples));
            out.setProperty("lookup.samples", Integer.toString(samples));

            int adds = mode.singleAdds;
            long[] addOurs = new long[adds];
            long[] addRaw = new long[adds];
            int next = n;
            int warmAdds = Math.min(20, adds / 5);
            for (int i = 0; i < warmAdds + adds; i++) {
                Car c1 = CarGenerator.car(next);
                Car c2 = CarGenerator.car(next);
                next++;
                long a;
                long c;
                if ((i & 1) == 0) {
                    a = time(() -> cars.add(c1));
                    c = time(() -> floor.add(c2));
                } else {
                    c = time(() -> floor.add(c2));
                    a = time(() -> cars.add(c1));
                }
                if (i >= warmAdds) {
                    addOurs[i - warmAdds] = a;
                    addRaw[i - warmAdds] = c;
                }
            }
            put(out, "add.quack", addOurs);
            put(out, "add.raw", addRaw);
            out.setProperty("add.samples", Integer.toString(adds));
        } catch (Throwable e) {
            rc = 3;
            out.setProperty("error", String.valueOf(e));
            e.printStackTrace();
        } finally {
            if (persistence != null) {
                persistence.close();
            }
            if (raw != null) {
                raw.close();
            }
            Worker.deleteRecursively(dir);
        }
        out.setProperty("loadavg_end", Worker.loadAverage());
        out.setProperty("status", rc == 0 ? "ok" : "failed");
        try (OutputStream os = Files.newOutputStream(Paths.get(outFile))) {
            out.store(os, "quackjvm interleaved lookup/add, " + storage);
        }
        System.exit(rc);
    }

    private static long time(Runnable r) {
        long t0 = System.nanoTime();
        r.run();
        return System.nanoTime() - t0;
    }

    private static long timeOurs(IndexedCollection<Car> cars, int k) {
        long t0 = System.nanoTime();
        Car c;
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, k))) {
            Iterator<Car> it = rs.iterator();
            c = it.hasNext() ? it.next() : null;
        }
        long t = System.nanoTime() - t0;
        if (c == null || c.getCarId() != k) {
            throw new IllegalStateException("quackjvm lookup(" + k + ") returned " + c);
        }
        return t;
    }

    private static long timeRaw(RawJdbcSubject raw, int k) {
        long t0 = System.nanoTime();
        Car c = raw.lookup(k);
        long t = System.nanoTime() - t0;
        if (c == null || c.getCarId() != k) {
            throw new IllegalStateException("raw lookup(" + k + ") returned " + c);
        }
        return t;
    }

    private static long timeBytes(RawJdbcSubject raw, int k) {
        long t0 = System.nanoTime();
        byte[] b = raw.lookupBytes(k);
        long t = System.nanoTime() - t0;
        if (b == null) {
            throw new IllegalStateException("raw lookupBytes(" + k + ") returned null");
        }
        return t;
    }

    private static void put(Properties out, String key, long[] samples) {
        Timer.Stats s = new Timer.Stats(samples);
        out.setProperty(key + ".p50_us", Double.toString(s.median() / 1e3));
        out.setProperty(key + ".p90_us", Double.toString(s.percentile(90) / 1e3));
    }
}
