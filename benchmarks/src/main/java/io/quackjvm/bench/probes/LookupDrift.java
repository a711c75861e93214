package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.SplittableRandom;

import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * How a fork's point lookups drift after a load: the harness's {@code quack-file-pk} / {@code quack-mem-pk}
 * (BLOB layout, primary key only, one {@code addAll} of every car), then random-key lookups in consecutive windows,
 * the median of each window printed with the load average. Shows whether a slow fork is slow from its first
 * lookup to its last (a state of the fork) or only for a while after the load (work left running by the load).
 * Arguments: N, windows, window ms, {@code file} or {@code mem}; {@code -Dprop=k=v,...} are DuckDB properties.
 */
public final class LookupDrift {
    private LookupDrift() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int windows = Integer.parseInt(args[1]);
        long windowNs = Long.parseLong(args[2]) * 1_000_000L;
        boolean file = args[3].equals("file");
        Path dir = Files.createTempDirectory("drift");
        DuckDBPersistence.Builder<Car, Integer> b = DuckDBPersistence.builder(Car.CAR_ID);
        if (file) {
            b.file(dir.resolve("quack.duckdb"));
        }
        for (String kv : System.getProperty("prop", "").split(",")) {
            if (kv.contains("=")) {
                b.property(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        try (DuckDBPersistence<Car, Integer> p = b.build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            long t = System.nanoTime();
            cars.addAll(CarGenerator.cars(0, n));
            System.out.printf("loaded %d in %.0f ms%n", n, (System.nanoTime() - t) / 1e6);
            System.gc();
            SplittableRandom r = new SplittableRandom(CarGenerator.SEED + 1);
            long start = System.nanoTime();
            for (int w = 0; w < windows; w++) {
                long[] samples = new long[200_000];
                int s = 0;
                long end = System.nanoTime() + windowNs;
                while (System.nanoTime() < end && s < samples.length) {
                    int k = r.nextInt(n);
                    long t0 = System.nanoTime();
                    try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, k))) {
                        Iterator<Car> it = rs.iterator();
                        if (!it.hasNext() || it.next().getCarId() != k) {
                            throw new IllegalStateException("lookup " + k);
                        }
                    }
                    samples[s++] = System.nanoTime() - t0;
                }
                Arrays.sort(samples, 0, s);
                System.out.printf("t=%5.1fs window %2d: p50 %6.1f us  p90 %6.1f us  n=%d  load %s%n",
                        (System.nanoTime() - start) / 1e9, w, samples[s / 2] / 1e3, samples[s * 9 / 10] / 1e3, s,
                        Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
            }
        }
    }
}
