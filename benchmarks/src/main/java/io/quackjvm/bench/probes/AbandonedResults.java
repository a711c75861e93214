package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.support.CloseableIterator;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * What open and dropped half-read results cost the process, measured from outside (resident memory). Loads N
 * cars into a file-backed blob collection ({@code memoryLimit("256MB")}), then:
 * <ol>
 *   <li><b>kept</b>: opens K iterators over the whole collection, reads one object from each and keeps them all
 *   referenced, then closes them; once with the library's streaming buffer and once with DuckDB's default
 *   ({@code property("streaming_buffer_size", "1MB")}), each on its own freshly opened file;</li>
 *   <li><b>dropped</b>: opens D iterators, reads one object from each and drops it unclosed, with no collection
 *   requested by anyone (the library never calls {@code System.gc()}; neither does this phase), printing resident
 *   memory and the JVM's collection count as it goes;</li>
 *   <li>closes the persistence and reopens the file;</li>
 *   <li>times full iterations of two copies of the collection, one per buffer, alternating.</li>
 * </ol>
 * Arguments: N (default 100,000), K (default 400), D (default 2,000), out dir.
 */
public final class AbandonedResults {

    private AbandonedResults() {
    }

    public static void main(String[] args) throws Exception {
        int n = ProbeReport.intArg(args, 0, 100_000);
        int k = ProbeReport.intArg(args, 1, 400);
        int d = ProbeReport.intArg(args, 2, 2_000);
        Path out = Path.of(ProbeReport.arg(args, 3, "results/raw/reliability"));
        Path dir = Files.createTempDirectory("quackjvm-abandoned");
        StringBuilder report = new StringBuilder();
        report.append("# Open and dropped half-read results\n\n")
                .append(String.format(Locale.ROOT, "%s, Java %s, %d cores, %d cars (blob layout, file, memoryLimit "
                                + "256MB). Resident memory of the process (RSS) read from /proc.%n%n", Instant.now(),
                        System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), n))
                .append(String.format(Locale.ROOT, "## %d iterators kept open, each read one object%n%n", k))
                .append("| streaming buffer | RSS before (MB) | RSS with all open (MB) | per open result (MB) "
                        + "| RSS after closing them (MB) |\n|---|--:|--:|--:|--:|\n");
        for (String buffer : new String[]{null, "1MB"}) {
            Path file = dir.resolve("kept-" + (buffer == null ? "default" : buffer) + ".duckdb");
            DuckDBPersistence.Builder<Car, Integer> builder = DuckDBPersistence.builder(Car.CAR_ID).file(file)
                    .memoryLimit("256MB");
            if (buffer != null) {
                builder.property("streaming_buffer_size", buffer);
            }
            try (DuckDBPersistence<Car, Integer> p = builder.build()) {
                IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
                cars.addAll(CarGenerator.cars(0, n));
                System.gc();
                double before = Worker.rssMb();
                List<CloseableIterator<Car>> open = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    CloseableIterator<Car> it = (CloseableIterator<Car>) cars.iterator();
                    it.next();
                    open.add(it);
                }
                double all = Worker.rssMb();
                open.forEach(CloseableIterator::close);
                open.clear();
                double after = Worker.rssMb();
                report.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | %.0f |%n",
                        buffer == null ? "library default (16KB)" : buffer + " (DuckDB's default)", before, all,
                        (all - before) / k, after));
            }
        }
        report.append(scanTimes(dir, n));
        Path file = dir.resolve("cars.duckdb");
        report.append(String.format(Locale.ROOT, "%n## %d iterators dropped unclosed, each read one object%n%n", d))
                .append("No `System.gc()` anywhere: dropped results are released by the collector's own runs "
                        + "(a `Cleaner`).\n\n")
                .append("| iterators dropped | process RSS (MB) | JVM collections so far |\n|--:|--:|--:|\n");
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file)
                .memoryLimit("256MB").build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addAll(CarGenerator.cars(0, n));
            System.gc();
            long collections0 = collections();
            report.append(String.format(Locale.ROOT, "| 0 | %.0f | 0 |%n", Worker.rssMb()));
            int step = Math.max(1, d / 10);
            for (int i = 1; i <= d; i++) {
                Iterator<Car> it = cars.iterator();
                it.next();
                if (i % step == 0) {
                    report.append(String.format(Locale.ROOT, "| %d | %.0f | %d |%n", i, Worker.rssMb(),
                            collections() - collections0));
                }
            }
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
        report.append(String.format(Locale.ROOT, "%nLoad average at the end: %s (2 cores; above 2 means other work "
                + "shared the machine, so compare the two buffers within this run only).%n", Worker.loadAverage()));
        Worker.deleteRecursively(dir);
        Files.createDirectories(out);
        Files.writeString(out.resolve("abandoned-results.md"), report);
        System.out.print(report);
    }

    /** Full iterations of two copies of the collection, one per buffer, alternating in one JVM. */
    private static String scanTimes(Path dir, int n) {
        String[] buffers = {"16KB", "1MB"};
        int rounds = 11;
        long[][] ms = new long[buffers.length][rounds];
        List<DuckDBPersistence<Car, Integer>> open = new ArrayList<>();
        try {
            List<IndexedCollection<Car>> collections = new ArrayList<>();
            for (String buffer : buffers) {
                DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID)
                        .file(dir.resolve("scan-" + buffer + ".duckdb")).memoryLimit("256MB")
                        .property("streaming_buffer_size", buffer).build();
                open.add(p);
                IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
                cars.addAll(CarGenerator.cars(0, n));
                collections.add(cars);
            }
            for (int r = -3; r < rounds; r++) {
                for (int b = 0; b < buffers.length; b++) {
                    long t0 = System.nanoTime();
                    long seen = 0;
                    for (Car ignored : collections.get(b)) {
                        seen++;
                    }
                    if (seen != n) {
                        throw new IllegalStateException("iterated " + seen + " of " + n);
                    }
                    if (r >= 0) {
                        ms[b][r] = (System.nanoTime() - t0) / 1_000_000;
                    }
                }
            }
        } finally {
            open.forEach(DuckDBPersistence::close);
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%n## Full iteration of %d cars, "
                + "alternating, %d rounds after 3 warm-up rounds%n%n| streaming buffer | median (ms) | all (ms) |"
                + "%n|---|--:|---|%n", n, rounds));
        for (int b = 0; b < buffers.length; b++) {
            long[] sorted = ms[b].clone();
            java.util.Arrays.sort(sorted);
            out.append(String.format(Locale.ROOT, "| %s | %d | %s |%n", buffers[b], sorted[rounds / 2],
                    java.util.Arrays.toString(ms[b])));
        }
        return out.toString();
    }

    private static long collections() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionCount());
        }
        return total;
    }
}
