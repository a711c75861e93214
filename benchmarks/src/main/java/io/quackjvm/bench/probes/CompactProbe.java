package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What bounds a database file under remove/add cycles, measured through the library: a file-backed blob collection
 * of N benchmark cars with two attribute indexes (manufacturer, price); each round removes every car, adds them all
 * back, then either runs only a checkpoint (what {@code compact()} did before 0.2: {@code getBytesUsed()} still
 * checkpoints) or {@code compact()} (rewrite plus checkpoint). Prints one markdown row per round: the file (database
 * plus write-ahead log) before the step, its largest size while the step ran (sampled every 5 ms), after it, and the
 * step's time. Arguments: N list (default 200000,1000000) and rounds (default 5).
 */
public final class CompactProbe {

    private CompactProbe() {
    }

    public static void main(String[] args) throws Exception {
        String[] sizes = (args.length > 0 ? args[0] : "200000,1000000").split(",");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        System.out.println("| objects | mode | round | before MB | peak during MB | after MB | step ms |");
        System.out.println("|--:|---|--:|--:|--:|--:|--:|");
        for (String size : sizes) {
            int n = Integer.parseInt(size.trim());
            for (String mode : new String[]{"checkpoint", "compact"}) {
                run(n, mode, rounds);
            }
        }
    }

    private static void run(int n, String mode, int rounds) throws Exception {
        Path dir = Files.createTempDirectory("compact-probe");
        Path file = dir.resolve("cars.duckdb");
        List<Car> cars = CarGenerator.cars(0, n);
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
            coll.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            coll.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
            coll.addAll(cars);
            p.getBytesUsed();
            row(n, mode, 0, size(file), size(file), size(file), 0);
            for (int round = 1; round <= rounds; round++) {
                coll.removeAll(cars);
                coll.addAll(cars);
                long before = size(file);
                AtomicLong peak = new AtomicLong(before);
                AtomicBoolean done = new AtomicBoolean();
                Thread sampler = new Thread(() -> {
                    while (!done.get()) {
                        peak.accumulateAndGet(size(file), Math::max);
                        try {
                            Thread.sleep(5);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                sampler.start();
                long start = System.nanoTime();
                if (mode.equals("compact")) {
                    p.compact();
                } else {
                    p.getBytesUsed();
                }
                long ms = (System.nanoTime() - start) / 1_000_000;
                done.set(true);
                sampler.join();
                long after = size(file);
                row(n, mode, round, before, Math.max(peak.get(), after), after, ms);
                if (coll.size() != n) {
                    throw new IllegalStateException("lost objects: " + coll.size());
                }
            }
        } finally {
            try (var walk = Files.walk(dir)) {
                List<Path> paths = new ArrayList<>(walk.toList());
                java.util.Collections.reverse(paths);
                for (Path path : paths) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    private static void row(int n, String mode, int round, long before, long peak, long after, long ms) {
        System.out.printf(Locale.ROOT, "| %,d | %s | %d | %.1f | %.1f | %.1f | %d |%n", n, mode, round, before / 1e6,
                peak / 1e6, after / 1e6, ms);
    }

    private static long size(Path file) {
        long total = 0;
        for (Path p : new Path[]{file, Path.of(file + ".wal")}) {
            try {
                total += Files.exists(p) ? Files.size(p) : 0;
            } catch (Exception e) {
                // a file being replaced between the two calls counts as absent
            }
        }
        return total;
    }
}
