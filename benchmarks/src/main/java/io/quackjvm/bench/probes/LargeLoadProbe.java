package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * One very large load through the bulk writer into one file (blob layout, one DuckDBIndex on manufacturer unless
 * told otherwise), with {@code memoryLimit("256MB")}; run it with a small heap ({@code -Xmx512m}). Cars are
 * generated while they are written (never held), RSS (VmRSS of /proc/self/status) is sampled every 200 ms
 * throughout, and a few queries are timed on the result after reopening it. Prints progress lines and a markdown
 * summary.
 *
 * <p>Arguments: N (default 100000000), directory (default a new temporary one), "pk" for the primary key only,
 * "importer" for {@code bulkImporter()}, and a commit interval (default 0: one commit at the end; otherwise
 * {@code commit()} and {@code optimize()}, which checkpoints, every that many objects).
 */
public final class LargeLoadProbe {

    private LargeLoadProbe() {
    }

    static long rssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }

    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 100_000_000L;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("large-load");
        boolean pkOnly = args.length > 2 && args[2].contains("pk");
        boolean importer = args.length > 2 && args[2].contains("importer");
        long commitEvery = args.length > 3 ? Long.parseLong(args[3]) : 0;
        Files.createDirectories(dir);
        Path file = dir.resolve("cars.duckdb");
        AtomicLong maxRss = new AtomicLong();
        Thread sampler = new Thread(() -> {
            while (true) {
                maxRss.accumulateAndGet(rssKb(), Math::max);
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "rss-sampler");
        sampler.setDaemon(true);
        sampler.start();
        long t0 = System.nanoTime();
        long[] lastPrint = {t0};
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file)
                .memoryLimit("256MB").progressListener(pr -> {
                    long now = System.nanoTime();
                    if (now - lastPrint[0] > 30_000_000_000L || pr.finished()) {
                        lastPrint[0] = now;
                        System.out.printf(Locale.ROOT, "%s | RSS now %d MB, max %d MB, heap used %d MB, file %d MB%n",
                                pr, rssKb() / 1024, maxRss.get() / 1024,
                                (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20,
                                size(file) >> 20);
                    }
                }).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            if (!pkOnly) {
                cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            }
            try (DuckDBBulkWriter<Car> w = importer ? p.bulkImporter() : p.bulkWriter()) {
                long slice = commitEvery > 0 ? commitEvery : n;
                for (long from = 0; from < n; from += slice) {
                    long start = from;
                    long end = Math.min(n, from + slice);
                    w.addAll(() -> new Iterator<>() {
                        long next = start;
                        @Override public boolean hasNext() { return next < end; }
                        @Override public Car next() { return CarGenerator.car((int) next++); }
                    });
                    if (end < n) {
                        w.commit();
                        p.optimize();
                        System.out.printf(Locale.ROOT, "committed %,d | RSS now %d MB, max %d MB%n", end,
                                rssKb() / 1024, maxRss.get() / 1024);
                    }
                }
                long tc = System.nanoTime();
                w.commit();
                System.out.printf(Locale.ROOT, "commit took %d ms%n", (System.nanoTime() - tc) / 1_000_000);
            }
        }
        long loadMs = (System.nanoTime() - t0) / 1_000_000;
        long loadMaxRss = maxRss.get();
        System.out.printf(Locale.ROOT, "loaded %,d in %,d ms; max RSS %d MB; file %d MB%n", n, loadMs,
                loadMaxRss / 1024, size(file) >> 20);
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file)
                .memoryLimit("256MB").build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            if (!pkOnly) {
                cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            }
            System.out.println();
            System.out.println("| query | result | ms (3 runs) |");
            System.out.println("|---|--:|---|");
            query("size()", () -> (long) cars.size());
            query("point lookup carId = n/2", () -> {
                try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, (int) (n / 2)))) {
                    return (long) rs.size();
                }
            });
            query("key range of 100 (carId between)", () -> {
                try (ResultSet<Car> rs = cars.retrieve(between(Car.CAR_ID, (int) (n / 3), (int) (n / 3) + 99))) {
                    long c = 0;
                    for (Car ignored : rs) {
                        c++;
                    }
                    return c;
                }
            });
            if (!pkOnly) {
                query("count manufacturer = Maker07", () -> {
                    try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, CarGenerator.manufacturer(7)))) {
                        return (long) rs.size();
                    }
                });
            }
        }
        System.out.printf(Locale.ROOT, "%nN | load ms | max RSS MB (load and queries) | file MB%n%,d | %,d | %d | %d%n",
                n, loadMs, maxRss.get() / 1024, size(file) >> 20);
    }

    interface Q {
        long run();
    }

    static void query(String name, Q q) {
        StringBuilder ms = new StringBuilder();
        long result = 0;
        for (int i = 0; i < 3; i++) {
            long t = System.nanoTime();
            result = q.run();
            ms.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", (System.nanoTime() - t) / 1e6));
        }
        System.out.printf(Locale.ROOT, "| %s | %,d | %s |%n", name, result, ms);
    }

    static long size(Path file) {
        long s = file.toFile().length();
        Path wal = Path.of(file + ".wal");
        return s + (Files.exists(wal) ? wal.toFile().length() : 0);
    }
}
