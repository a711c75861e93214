package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.persistence.disk.DiskPersistence;
import com.googlecode.cqengine.query.QueryFactory;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DiskPersistenceMigration;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.harness.Stamp;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What {@code DiskPersistenceMigration.copy} costs over the least a migration must do. A CQEngine
 * {@code DiskPersistence} file of N benchmark cars is written once; then, interleaved round by round in this JVM,
 * each into a new file collection (blob layout, primary key only):
 * <ul>
 *   <li>{@code copy}: {@code DiskPersistenceMigration.copy(file, Car.CAR_ID, target, null)};</li>
 *   <li>{@code baseline}: the same file opened in a {@code DiskPersistence} collection, iterated with
 *       {@code retrieve(all(Car.class))} and fed to a {@code DuckDBBulkWriter}, then committed.</li>
 * </ul>
 * The target is {@code copy} ÷ {@code baseline} ≤ 1.3. Each variant runs once untimed first (warm-up). Every run
 * checks that N cars were stored.
 *
 * <p>Arguments: N (default 1,000,000), rounds (default 5), {@code --out FILE} (default
 * {@code results/raw/migration/run.md}). Run with {@code --add-opens=java.base/java.util=ALL-UNNAMED}
 * (CQEngine's Kryo), for example from the repository root:
 * {@code mvn -B -pl benchmarks -am -DskipTests verify -Dbench="run io.quackjvm.bench.probes.MigrationProbe 1000000 5"}.
 */
public final class MigrationProbe {

    private interface Migration {
        long run(File source, Path dir) throws Exception;
    }

    private MigrationProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeReport.Args parsed = ProbeReport.Args.parse(args, "results/raw/migration/run.md");
        Path out = parsed.out();
        String[] pos = parsed.positional();
        int n = ProbeReport.intArg(pos, 0, 1_000_000);
        int rounds = ProbeReport.intArg(pos, 1, 5);
        long t0 = System.nanoTime();
        StringBuilder md = ProbeReport.stamped(MigrationProbe.class, n, rounds);

        Path work = Files.createTempDirectory("migration-probe");
        File source = work.resolve("cars.sqlite").toFile();
        long w0 = System.nanoTime();
        writeSource(source, n);
        md.append(String.format(Locale.ROOT, "DiskPersistence file of %,d cars: %,d bytes, written in %,d ms.%n%n", n,
                source.length(), (System.nanoTime() - w0) / 1_000_000));

        Map<String, Migration> variants = new LinkedHashMap<>();
        variants.put("copy", MigrationProbe::copy);
        variants.put("baseline", MigrationProbe::baseline);
        for (Migration m : variants.values()) {
            Path dir = Files.createTempDirectory(work, "warm");
            check(n, m.run(source, dir));
            delete(dir);
        }
        Map<String, List<Long>> times = new LinkedHashMap<>();
        for (int r = 1; r <= rounds; r++) {
            for (Map.Entry<String, Migration> v : variants.entrySet()) {
                Path dir = Files.createTempDirectory(work, "round");
                System.gc();
                long s = System.nanoTime();
                long stored = v.getValue().run(source, dir);
                long ms = (System.nanoTime() - s) / 1_000_000;
                check(n, stored);
                times.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(ms);
                System.err.printf(Locale.ROOT, "round %d %-8s %,d ms (load avg %s)%n", r, v.getKey(), ms,
                        Worker.loadAverage());
                delete(dir);
            }
        }
        delete(work);
        long copy = median(times.get("copy"));
        long baseline = median(times.get("baseline"));
        md.append("| variant | median ms | rounds ms |\n|---|--:|---|\n");
        for (Map.Entry<String, List<Long>> e : times.entrySet()) {
            md.append(String.format(Locale.ROOT, "| %s | %,d | %s |%n", e.getKey(), median(e.getValue()),
                    e.getValue()));
        }
        double ratio = baseline == 0 ? Double.NaN : (double) copy / baseline;
        md.append(String.format(Locale.ROOT, "%ncopy ÷ baseline = %.2f (target ≤ 1.3: %s)%n", ratio,
                ratio <= 1.3 ? "met" : "not met"));
        ProbeReport.finish(md, t0, out);
        System.exit(0);
    }

    private static void writeSource(File file, int n) {
        DiskPersistence<Car, Integer> persistence = DiskPersistence.onPrimaryKeyInFile(Car.CAR_ID, file);
        try {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
            for (int from = 0; from < n; from += 100_000) {
                cars.addAll(CarGenerator.cars(from, Math.min(100_000, n - from)));
            }
        } finally {
            persistence.close();
        }
    }

    private static long copy(File source, Path dir) {
        try (DuckDBPersistence<Car, Integer> target =
                     DuckDBPersistence.onPrimaryKeyInFile(Car.CAR_ID, dir.resolve("quack.duckdb").toFile())) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(target);
            DiskPersistenceMigration.copy(source, Car.CAR_ID, cars, null);
            return cars.size();
        }
    }

    private static long baseline(File source, Path dir) {
        try (DuckDBPersistence<Car, Integer> target =
                     DuckDBPersistence.onPrimaryKeyInFile(Car.CAR_ID, dir.resolve("quack.duckdb").toFile())) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(target);
            DiskPersistence<Car, Integer> disk = DiskPersistence.onPrimaryKeyInFile(Car.CAR_ID, source);
            try {
                IndexedCollection<Car> old = new ConcurrentIndexedCollection<>(disk);
                try (DuckDBBulkWriter<Car> writer = target.bulkWriter();
                     ResultSet<Car> all = old.retrieve(QueryFactory.all(Car.class))) {
                    writer.addAll(all);
                    writer.commit();
                }
            } finally {
                disk.close();
            }
            return cars.size();
        }
    }

    private static void check(int n, long stored) {
        if (stored != n) {
            throw new IllegalStateException(stored + " cars stored, " + n + " expected");
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Comparator.naturalOrder());
        int m = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(m) : (sorted.get(m - 1) + sorted.get(m)) / 2;
    }

    private static void delete(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
