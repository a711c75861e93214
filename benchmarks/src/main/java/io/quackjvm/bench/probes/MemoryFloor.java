package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.SplittableRandom;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * Where the resident memory of a quackjvm process goes, step by step in one JVM: the JVM alone; the DuckDB
 * driver with one empty in-memory database (and how much of the process is DuckDB's native library); an empty
 * file-backed columnar collection with {@code memoryLimit("256MB")} and three {@code DuckDBIndex}es; the same after
 * loading N benchmark cars, after reading them (every object once, 1,000 key lookups), and after {@code close()}.
 * Then DuckDB's own accounting ({@code duckdb_memory()}, by tag) for that file opened with plain JDBC and read the
 * same way. Arguments: N (default 1,000,000) and an output directory (default {@code results/raw/memory}); writes
 * {@code summary.md} there. Run it as the harness runs its forks ({@code -Xmx2g -XX:+UseG1GC
 * -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=10}) so that RSS after a GC reflects what is live.
 */
public final class MemoryFloor {

    private MemoryFloor() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 1_000_000;
        Path out = Paths.get(args.length > 1 ? args[1] : "results/raw/memory");
        Path dir = Files.createTempDirectory("quackjvm-memory-floor-");
        Path file = dir.resolve("cars.duckdb");
        long t0 = System.nanoTime();
        List<String[]> rows = new ArrayList<>();

        rows.add(row("the JVM alone (only this probe loaded)", settledRss(), "–"));

        double duckLib;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("SELECT 1");
            duckLib = nativeLibraryRss("duckdb");
            rows.add(row("+ DuckDB driver, one empty in-memory database open", settledRss(),
                    String.format(Locale.ROOT, "%.1f MB of it is libduckdb's mapped code and data", duckLib)));
        }

        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).memoryLimit("256MB")
                .columnarLayout(ColumnarLayout.reflective(Car.class)).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(DuckDBIndex.onAttribute(Car.MODEL));
        cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
        rows.add(row("+ empty columnar collection in a file, memoryLimit(\"256MB\"), 3 DuckDBIndexes", settledRss(), "–"));

        List<Car> source = CarGenerator.cars(0, n);
        cars.addAll(source);
        source = null;
        rows.add(row(String.format(Locale.ROOT, "after addAll of %,d cars (source list dropped)", n), settledRss(),
                String.format(Locale.ROOT, "file %.1f MB", p.getBytesUsed() / 1e6)));

        SplittableRandom random = new SplittableRandom(7);
        long seen = 0;
        try (ResultSet<Car> rs = cars.retrieve(all(Car.class))) {
            for (Car car : rs) {
                seen += car.getCarId() >= 0 ? 1 : 0;
            }
        }
        for (int i = 0; i < 1_000; i++) {
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, random.nextInt(n)))) {
                seen += rs.uniqueResult() == null ? 0 : 1;
            }
        }
        rows.add(row("after reading every object once and 1,000 key lookups", settledRss(),
                String.format(Locale.ROOT, "%,d objects read", seen)));
        p.close();
        rows.add(row("after close()", settledRss(), "–"));

        // DuckDB's own accounting for the same file, read the same way through plain JDBC.
        List<String[]> tags = new ArrayList<>();
        Properties props = new Properties();
        props.setProperty("memory_limit", "256MB");
        props.setProperty("access_mode", "READ_ONLY");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, props);
             Statement s = c.createStatement()) {
            String table;
            try (java.sql.ResultSet rs = s.executeQuery("SELECT table_name FROM duckdb_tables() "
                    + "WHERE table_name NOT LIKE '%_idx_%' AND table_name NOT LIKE 'quackjvm%' ORDER BY estimated_size DESC LIMIT 1")) {
                rs.next();
                table = rs.getString(1);
            }
            try (java.sql.ResultSet rs = s.executeQuery("SELECT * FROM \"" + table + "\"")) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    for (int i = 1; i <= columns; i++) {
                        rs.getObject(i);
                    }
                }
            }
            try (PreparedStatement lookup = c.prepareStatement("SELECT * FROM \"" + table + "\" WHERE _key = ?")) {
                for (int i = 0; i < 1_000; i++) {
                    lookup.setInt(1, random.nextInt(n));
                    try (java.sql.ResultSet rs = lookup.executeQuery()) {
                        rs.next();
                    }
                }
            }
            try (java.sql.ResultSet rs = s.executeQuery("SELECT tag, memory_usage_bytes FROM duckdb_memory() "
                    + "WHERE memory_usage_bytes > 0 ORDER BY memory_usage_bytes DESC")) {
                long total = 0;
                while (rs.next()) {
                    total += rs.getLong(2);
                    tags.add(new String[]{rs.getString(1), String.format(Locale.ROOT, "%.1f", rs.getLong(2) / 1e6)});
                }
                tags.add(new String[]{"**total**", String.format(Locale.ROOT, "%.1f", total / 1e6)});
            }
        } finally {
            Worker.deleteRecursively(dir);
        }
        write(out, n, rows, tags, (System.nanoTime() - t0) / 1e9 / 60);
    }

    private static String[] row(String step, double rssMb, String note) {
        double committed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() / 1e6;
        String[] r = {step, String.format(Locale.ROOT, "%.1f", rssMb), String.format(Locale.ROOT, "%.1f", committed),
                String.format(Locale.ROOT, "%.1f", rssMb - committed), note};
        System.out.println(String.join(" | ", r));
        return r;
    }

    /** VmRSS after a GC, read until two readings a second apart differ by under 1 MB (at most ten tries). */
    private static double settledRss() throws InterruptedException {
        double last = Double.NaN;
        for (int i = 0; i < 10; i++) {
            System.gc();
            Thread.sleep(1_000);
            double now = Worker.rssMb();
            if (Math.abs(now - last) < 1.0) {
                return now;
            }
            last = now;
        }
        return last;
    }

    /** Resident MB of every mapping whose path contains {@code name}, from /proc/self/smaps. */
    private static double nativeLibraryRss(String name) throws IOException {
        boolean inside = false;
        long kb = 0;
        for (String line : Files.readAllLines(Paths.get("/proc/self/smaps"), StandardCharsets.UTF_8)) {
            String[] parts = line.trim().split("\\s+");
            if (parts[0].matches("[0-9a-f]+-[0-9a-f]+")) {
                inside = parts.length >= 6 && parts[5].contains(name);
            } else if (inside && line.startsWith("Rss:")) {
                kb += Long.parseLong(line.trim().split("\\s+")[1]);
            }
        }
        return kb * 1024 / 1e6;
    }

    private static void write(Path out, int n, List<String[]> rows, List<String[]> tags, double minutes) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("# Where a quackjvm process's memory goes\n\n");
        sb.append(String.format(Locale.ROOT, "Generated by `io.quackjvm.bench.probes.MemoryFloor %d` (%.1f min, %d cores, Java %s, "
                        + "max heap %.0f MB). One JVM, step by step; RSS is VmRSS from /proc/self/status after System.gc(), "
                        + "read until it settles.%n%n", n, minutes, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), Runtime.getRuntime().maxMemory() / 1e6));
        sb.append("| step | RSS MB | heap committed MB | RSS minus heap MB | note |\n|---|--:|--:|--:|---|\n");
        for (String[] r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        sb.append("\nDuckDB's own accounting (`duckdb_memory()`, non-zero tags) for the same file opened read-only with plain "
                + "JDBC and `memory_limit` 256MB, after reading every row once and 1,000 key lookups:\n\n");
        sb.append("| tag | MB |\n|---|--:|\n");
        for (String[] t : tags) {
            sb.append("| ").append(t[0]).append(" | ").append(t[1]).append(" |\n");
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("summary.md"), sb.toString());
        System.out.print(sb);
    }
}
