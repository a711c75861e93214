package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.disk.DiskIndex;
import com.googlecode.cqengine.persistence.disk.DiskPersistence;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Load time of N benchmark cars into an empty file-backed collection (blob layout), side by side in one JVM,
 * interleaved round by round: the bulk writer, the bulk importer (keys promised new), one {@code addAll} (today's
 * path), and CQEngine DiskPersistence's {@code addAll}; each with the primary key only and with three indexes
 * (DuckDBIndex or DiskIndex on manufacturer, model, price). The cars are generated once, before the rounds; each
 * variant gets a new directory. Prints a markdown table of medians and every round's time.
 *
 * <p>Before the rounds, every variant loads once, untimed (warm-up: by default all N cars for the quackjvm
 * variants, at most 100,000 for DiskPersistence's, whose load is long), so that the first variant of round 1 does
 * not pay for the JIT, class loading and heap growth of all of them (with a 100,000-car warm-up it still did).
 *
 * <p>Arguments: N (default 1000000), rounds (default 3), variants (comma list; default all), warm-up size
 * (default N; 0 for none). Needs
 * {@code --add-opens=java.base/java.util=ALL-UNNAMED} for CQEngine's SQLite persistence.
 */
public final class BulkLoadProbe {

    private BulkLoadProbe() {
    }

    interface Load {
        void run(Path dir, List<Car> cars) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Map<String, Load> variants = new LinkedHashMap<>();
        variants.put("pk: bulk writer", (d, c) -> quackBulk(d, c, false, false));
        variants.put("pk: bulk importer", (d, c) -> quackBulk(d, c, false, true));
        variants.put("pk: addAll", (d, c) -> quackAddAll(d, c, false));
        variants.put("pk: DiskPersistence addAll", (d, c) -> disk(d, c, false));
        // The DuckDB floor under every load of ours: the same rows, serialised before the clock starts, appended
        // by one raw Appender into a fresh (_key INTEGER PRIMARY KEY, object BLOB) table in one transaction.
        variants.put("pk: raw DuckDB Appender, objects serialised beforehand (floor)", BulkLoadProbe::rawFloor);
        variants.put("3 idx: bulk writer", (d, c) -> quackBulk(d, c, true, false));
        variants.put("3 idx: addAll", (d, c) -> quackAddAll(d, c, true));
        variants.put("3 idx: DiskPersistence + 3 DiskIndex addAll", (d, c) -> disk(d, c, true));
        if (args.length > 2) {
            List<String> keep = List.of(args[2].split(","));
            variants.keySet().removeIf(k -> keep.stream().noneMatch(k::contains));
        }
        int warmUp = args.length > 3 ? Integer.parseInt(args[3]) : n;
        List<Car> cars = CarGenerator.cars(0, n);
        serialise(cars);
        if (warmUp > 0) {
            for (Map.Entry<String, Load> v : variants.entrySet()) {
                int size = Math.min(v.getKey().contains("DiskPersistence") ? 100_000 : warmUp, n);
                List<Car> few = cars.subList(0, size);
                Path dir = Files.createTempDirectory("bulk-probe-warm");
                v.getValue().run(dir, few);
                delete(dir);
            }
        }
        Map<String, List<Long>> times = new LinkedHashMap<>();
        for (int r = 1; r <= rounds; r++) {
            for (Map.Entry<String, Load> v : variants.entrySet()) {
                Path dir = Files.createTempDirectory("bulk-probe");
                System.gc();
                long c0 = cpuMillis();
                long t0 = System.nanoTime();
                v.getValue().run(dir, cars);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                long cpu = cpuMillis() - c0;
                times.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(ms);
                System.err.printf(Locale.ROOT, "round %d %-45s %,d ms, process CPU %,d ms (load avg %s)%n", r,
                        v.getKey(), ms, cpu,
                        Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
                delete(dir);
            }
        }
        System.out.printf(Locale.ROOT, "N = %,d, file, blob layout, %d rounds interleaved, warm-up %,d%n%n", n, rounds,
                warmUp);
        System.out.println("| variant | median ms | rounds ms |");
        System.out.println("|---|--:|---|");
        for (Map.Entry<String, List<Long>> e : times.entrySet()) {
            System.out.printf(Locale.ROOT, "| %s | %,d | %s |%n", e.getKey(), median(e.getValue()), e.getValue());
        }
    }

    /** CPU time of the whole process (every Java and DuckDB thread), a steadier measure on a shared machine. */
    static long cpuMillis() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
    }

    static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Comparator.naturalOrder());
        int m = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(m) : (sorted.get(m - 1) + sorted.get(m)) / 2;
    }

    private static DuckDBPersistence<Car, Integer> quack(Path dir) {
        return DuckDBPersistence.builder(Car.CAR_ID).file(dir.resolve("quack.duckdb")).build();
    }

    private static void indexes(IndexedCollection<Car> coll) {
        coll.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        coll.addIndex(DuckDBIndex.onAttribute(Car.MODEL));
        coll.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
    }

    static void quackBulk(Path dir, List<Car> cars, boolean withIndexes, boolean importer) {
        try (DuckDBPersistence<Car, Integer> p = quack(dir)) {
            IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
            if (withIndexes) {
                indexes(coll);
            }
            try (DuckDBBulkWriter<Car> w = importer ? p.bulkImporter() : p.bulkWriter()) {
                w.addAll(cars);
                w.commit();
            }
            check(coll.size(), cars.size());
        }
    }

    static void quackAddAll(Path dir, List<Car> cars, boolean withIndexes) {
        try (DuckDBPersistence<Car, Integer> p = quack(dir)) {
            IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
            if (withIndexes) {
                indexes(coll);
            }
            coll.addAll(cars);
            check(coll.size(), cars.size());
        }
    }

    /** The cars serialised once, before any load (Kryo, as the blob layout does), for {@link #rawFloor}. */
    private static byte[][] serialised;

    /** Serialises {@code cars} for {@link #rawFloor}, whose loads take a prefix of them. */
    static void serialise(List<Car> cars) {
        {
            com.esotericsoftware.kryo.Kryo kryo = new com.esotericsoftware.kryo.Kryo();
            kryo.setRegistrationRequired(false);
            kryo.setReferences(false);
            serialised = new byte[cars.size()][];
            com.esotericsoftware.kryo.io.Output out = new com.esotericsoftware.kryo.io.Output(256, -1);
            for (int i = 0; i < cars.size(); i++) {
                out.reset();
                kryo.writeClassAndObject(out, cars.get(i));
                serialised[i] = out.toBytes();
            }
        }
    }

    static void rawFloor(Path dir, List<Car> cars) throws Exception {
        Files.createDirectories(dir);
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("raw.duckdb"))) {
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (_key INTEGER PRIMARY KEY, object BLOB)");
                s.execute("BEGIN TRANSACTION");
            }
            org.duckdb.DuckDBConnection duck = c.unwrap(org.duckdb.DuckDBConnection.class);
            try (org.duckdb.DuckDBAppender a = duck.createAppender(org.duckdb.DuckDBConnection.DEFAULT_SCHEMA, "t")) {
                for (int i = 0; i < cars.size(); i++) {
                    a.beginRow();
                    a.append(cars.get(i).getCarId());
                    a.append(serialised[i]);
                    a.endRow();
                }
            }
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("COMMIT");
                try (java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                    rs.next();
                    check(rs.getInt(1), cars.size());
                }
            }
        }
    }

    static void disk(Path dir, List<Car> cars, boolean withIndexes) {
        DiskPersistence<Car, Integer> p = DiskPersistence.onPrimaryKeyInFile(Car.CAR_ID, dir.resolve("cq.db").toFile());
        try {
            IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
            if (withIndexes) {
                coll.addIndex(DiskIndex.onAttribute(Car.MANUFACTURER));
                coll.addIndex(DiskIndex.onAttribute(Car.MODEL));
                coll.addIndex(DiskIndex.onAttribute(Car.PRICE));
            }
            coll.addAll(cars);
            check(coll.size(), cars.size());
        } finally {
            p.close();
        }
    }

    private static void check(int size, int expected) {
        if (size != expected) {
            throw new IllegalStateException("stored " + size + " objects, expected " + expected);
        }
    }

    private static void delete(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
