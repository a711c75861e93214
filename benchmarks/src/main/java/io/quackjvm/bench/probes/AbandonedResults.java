package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.Locale;

/**
 * What iterators dropped half-read cost the process: loads N cars into a file-backed blob collection
 * ({@code memoryLimit("256MB")}), then opens K iterators over the whole collection, reads one object from each and
 * drops it without closing it, printing the process's resident memory every 50. Then closes the persistence and
 * reopens the file. Before the open-results registry each such iterator held its DuckDB pipeline (~7.5 MB at
 * 100k objects) until the end of the process. Arguments: N (default 100,000), K (default 500), out dir.
 */
public final class AbandonedResults {

    private AbandonedResults() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int k = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        Path out = Path.of(args.length > 2 ? args[2] : "results/reliability");
        Path dir = Files.createTempDirectory("quackjvm-abandoned");
        Path file = dir.resolve("cars.duckdb");
        StringBuilder report = new StringBuilder();
        report.append("# Iterators dropped half-read\n\n")
                .append(String.format(Locale.ROOT, "%s, Java %s, %d cars (blob layout, file, memoryLimit 256MB), "
                        + "%d iterators each read one object and dropped unclosed.%n%n", Instant.now(),
                        System.getProperty("java.version"), n, k))
                .append("| iterators dropped | process RSS (MB) |\n|--:|--:|\n");
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file)
                .memoryLimit("256MB").build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addAll(CarGenerator.cars(0, n));
            System.gc();
            report.append(String.format(Locale.ROOT, "| 0 | %.0f |%n", Worker.rssMb()));
            for (int i = 1; i <= k; i++) {
                Iterator<Car> it = cars.iterator();
                it.next();
                if (i % 50 == 0) {
                    report.append(String.format(Locale.ROOT, "| %d | %.0f |%n", i, Worker.rssMb()));
                }
            }
            p.compact();
        }
        long start = System.nanoTime();
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            report.append(String.format(Locale.ROOT, "%nAfter close(), the file reopened in the same JVM in %.1f ms "
                            + "with %d cars.%n", (System.nanoTime() - start) / 1e6,
                    new ConcurrentIndexedCollection<>(p).size()));
        } catch (RuntimeException e) {
            report.append("\nAfter close(), reopening the file in the same JVM failed: ").append(e.getMessage())
                    .append('\n');
        }
        Worker.deleteRecursively(dir);
        Files.createDirectories(out);
        Files.writeString(out.resolve("abandoned-results.md"), report);
        System.out.print(report);
    }
}
