package io.quackjvm.bench.probes;

import io.quackjvm.bench.harness.Configs;
import io.quackjvm.bench.harness.Subject;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBFunctions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.StringJoiner;

/**
 * How low can a DuckDB statement go, next to what CQEngine's DiskPersistence does for the same request? One JVM,
 * one data set (N cars from {@link CarGenerator}), every measurement interleaved sample by sample so a busy
 * machine slows all of them alike:
 * <ul>
 *   <li>CQEngine DiskPersistence with DiskIndex (the issue targets' baseline) and quackjvm (file, blob,
 *       DuckDBIndex, after {@code optimize()}) through CQEngine: point lookup, count of an equality, narrow
 *       range;</li>
 *   <li>raw DuckDB JDBC on tables of the same shape (object table with a primary key, index tables sorted by
 *       value), nothing of ours in between: the statements the engine issues, and the floors under them
 *       ({@code SELECT 1}, a count on a 100-row table);</li>
 *   <li>the same raw statements in a database attached with {@code ROW_GROUP_SIZE 16384} instead of DuckDB's
 *       122,880, since zone maps skip whole row groups.</li>
 * </ul>
 * Arguments: {@code N} (default 1,000,000), an output directory (default {@code results/raw/floors}) and optionally
 * the kinds of measurement to run ({@code lookup,floor,count,range}); writes {@code summary.md} there. Run with
 * {@code --add-opens=java.base/java.util=ALL-UNNAMED} (DiskPersistence).
 */
public final class StatementFloors {

    private static final int SAMPLES = 2_000;

    private StatementFloors() {
    }

    /** One named measurement: runs once per call with sample index {@code i}. */
    private interface Probe {
        void run(int i) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 1_000_000;
        Path out = Paths.get(args.length > 1 ? args[1] : "results/raw/floors");
        Path dir = Files.createTempDirectory("quackjvm-floors-");
        List<Car> cars = CarGenerator.cars(0, n);
        double width = 40.0 * (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE) / n;
        SplittableRandom random = new SplittableRandom(7);
        int[] keys = new int[SAMPLES];
        double[] lows = new double[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            keys[i] = random.nextInt(n);
            lows[i] = CarGenerator.MIN_PRICE + random.nextDouble() * (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE - width);
        }

        long t0 = System.nanoTime();
        Subject disk = Configs.get(Configs.DISK).factory.create(Files.createDirectories(dir.resolve("disk")));
        disk.load(cars);
        Subject quack = Configs.get(Configs.QUACK_FILE).factory.create(Files.createDirectories(dir.resolve("quack")));
        quack.load(cars);
        quack.optimize();
        Properties props = new Properties();
        props.setProperty("disabled_optimizers", "statistics_propagation");
        props.setProperty("jdbc_stream_results", "true");
        try (Connection root = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("raw.duckdb"), props);
             Connection c = ((DuckDBConnection) root).duplicate()) {
            try (Statement s = c.createStatement()) {
                s.execute("ATTACH '" + dir.resolve("raw16k.duckdb") + "' AS rg16k (ROW_GROUP_SIZE 16384)");
            }
            for (String schema : new String[]{"main", "rg16k.main"}) {
                createTables(c, schema, cars);
            }
            System.out.printf("loaded %,d cars into DiskPersistence, quackjvm and raw DuckDB in %.0f s%n", n,
                    (System.nanoTime() - t0) / 1e9);

            Map<String, Probe> probes = new LinkedHashMap<>();
            probes.put("lookup: DiskPersistence", i -> check(disk.lookup(keys[i]), keys[i]));
            probes.put("lookup: quackjvm", i -> check(quack.lookup(keys[i]), keys[i]));
            PreparedStatement one = c.prepareStatement("SELECT 1");
            PreparedStatement tiny = c.prepareStatement("SELECT count(*) FROM tiny WHERE v BETWEEN ? AND ?");
            PreparedStatement lookup = c.prepareStatement("SELECT object FROM car WHERE _key = ?");
            probes.put("floor: SELECT 1", i -> drain(one));
            probes.put("floor: count on a 100-row table", i -> {
                tiny.setInt(1, i % 90);
                tiny.setInt(2, i % 90 + 5);
                drain(tiny);
            });
            probes.put("lookup: raw DuckDB, primary key (ART), bytes only", i -> {
                lookup.setInt(1, keys[i]);
                drain(lookup);
            });
            // Why the parameterised lookup costs what it does: DuckDB re-binds and re-plans a prepared statement
            // with parameters on every execution when it reads a table, so the rows below separate planning from
            // executing. A statement with no parameters keeps its plan.
            PreparedStatement fixed = c.prepareStatement("SELECT object FROM car WHERE _key = " + keys[0]);
            probes.put("lookup: raw DuckDB, one fixed key written into the SQL, prepared once (plan kept)",
                    i -> drain(fixed));
            probes.put("lookup: raw DuckDB, key written into new SQL each time (parse and plan every time)", i -> {
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT object FROM car WHERE _key = " + keys[i])) {
                    while (rs.next()) {
                        rs.getObject(1);
                    }
                }
            });
            // The one way found to keep a plan and still look up a different key each time: no parameter, the key
            // comes from a Java function at run time, and the hash join's dynamic filter takes it to the ART.
            int[] current = new int[1];
            DuckDBFunctions.scalarFunction().withName("probe_key").withReturnType(DuckDBColumnType.INTEGER)
                    .withVectorizedFunction((in, result) -> {
                        for (long r = 0; r < result.rowCount(); r++) {
                            result.setInt(r, current[0]);
                        }
                    })
                    .withVolatile().register(c);
            PreparedStatement viaFunction = c.prepareStatement(
                    "SELECT car.object FROM (SELECT probe_key() AS k) key JOIN car ON car._key = key.k");
            probes.put("lookup: raw DuckDB, key from a Java function, plan kept (join filter drives the ART)", i -> {
                current[0] = keys[i];
                drain(viaFunction);
            });
            probes.put("count: DiskPersistence", i -> disk.count(CarGenerator.manufacturer(i % CarGenerator.MANUFACTURERS)));
            probes.put("count: quackjvm", i -> quack.count(CarGenerator.manufacturer(i % CarGenerator.MANUFACTURERS)));
            probes.put("range: DiskPersistence", i -> disk.range(lows[i], lows[i] + width));
            probes.put("range: quackjvm", i -> quack.range(lows[i], lows[i] + width));
            for (String schema : new String[]{"main", "rg16k.main"}) {
                String tag = schema.equals("main") ? "" : ", 16k-row groups";
                PreparedStatement count = c.prepareStatement("SELECT count(*) FROM " + schema + ".idx_m WHERE value = ?");
                PreparedStatement rangeKeys = c.prepareStatement("SELECT _key FROM " + schema + ".idx_p WHERE value BETWEEN ? AND ?");
                PreparedStatement rangeFetch = c.prepareStatement("SELECT _key, object FROM " + schema + ".car WHERE _key IN "
                        + "(SELECT _key FROM " + schema + ".idx_p WHERE value BETWEEN ? AND ?)");
                probes.put("count: raw DuckDB, sorted index table" + tag, i -> {
                    count.setString(1, CarGenerator.manufacturer(i % CarGenerator.MANUFACTURERS));
                    drain(count);
                });
                probes.put("range: raw DuckDB, keys only" + tag, i -> {
                    rangeKeys.setDouble(1, lows[i]);
                    rangeKeys.setDouble(2, lows[i] + width);
                    drain(rangeKeys);
                });
                probes.put("range: raw DuckDB, keys and objects in one semi-join" + tag, i -> {
                    rangeFetch.setDouble(1, lows[i]);
                    rangeFetch.setDouble(2, lows[i] + width);
                    drain(rangeFetch);
                });
                if (tag.isEmpty()) {
                    probes.put("range: raw DuckDB, keys, then objects by an IN list (two statements)", i -> {
                        rangeKeys.setDouble(1, lows[i]);
                        rangeKeys.setDouble(2, lows[i] + width);
                        StringJoiner in = new StringJoiner(",", "SELECT _key, object FROM car WHERE _key IN (", ")");
                        in.setEmptyValue("SELECT _key, object FROM car WHERE false");
                        try (ResultSet rs = rangeKeys.executeQuery()) {
                            while (rs.next()) {
                                in.add(Integer.toString(rs.getInt(1)));
                            }
                        }
                        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(in.toString())) {
                            while (rs.next()) {
                                rs.getBytes(2);
                            }
                        }
                    });
                }
            }

            if (args.length > 2) {
                // Only the kinds asked for (e.g. "lookup,floor"): fewer workloads in rotation evict less of each
                // other from the CPU caches.
                List<String> kinds = Arrays.asList(args[2].split(","));
                probes.keySet().removeIf(k -> !kinds.contains(k.substring(0, k.indexOf(':'))));
            }
            Map<String, long[]> samples = new LinkedHashMap<>();
            probes.keySet().forEach(k -> samples.put(k, new long[SAMPLES]));
            List<Map.Entry<String, Probe>> order = new ArrayList<>(probes.entrySet());
            for (int warm = 0; warm < 200; warm++) {
                for (Map.Entry<String, Probe> p : order) {
                    p.getValue().run(warm);
                }
            }
            for (int i = 0; i < SAMPLES; i++) {
                // Rotate the starting probe so none always runs right after the same neighbour.
                for (int j = 0; j < order.size(); j++) {
                    Map.Entry<String, Probe> p = order.get((i + j) % order.size());
                    long s = System.nanoTime();
                    p.getValue().run(i);
                    samples.get(p.getKey())[i] = System.nanoTime() - s;
                }
            }
            write(out, n, samples, (System.nanoTime() - t0) / 1e9 / 60);
        } finally {
            disk.close();
            quack.close();
            Worker.deleteRecursively(dir);
        }
    }

    private static void createTables(Connection c, String schema, List<Car> cars) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + schema + ".car (_key INTEGER PRIMARY KEY, object BLOB USING COMPRESSION uncompressed)");
            s.execute("CREATE TABLE " + schema + ".idx_m_load (_key INTEGER, value VARCHAR)");
            s.execute("CREATE TABLE " + schema + ".idx_p_load (_key INTEGER, value DOUBLE)");
            s.execute("CREATE TABLE " + schema + ".tiny AS SELECT range::INTEGER AS _key, range::INTEGER AS v FROM range(100)");
        }
        String catalog = schema.contains(".") ? schema.substring(0, schema.indexOf('.')) : null;
        DuckDBConnection duck = c.unwrap(DuckDBConnection.class);
        try (DuckDBAppender car = appender(duck, catalog, "car");
             DuckDBAppender m = appender(duck, catalog, "idx_m_load");
             DuckDBAppender p = appender(duck, catalog, "idx_p_load")) {
            for (Car x : cars) {
                car.beginRow();
                car.append(x.getCarId());
                car.append(x.toString().getBytes(StandardCharsets.UTF_8));
                car.endRow();
                m.beginRow();
                m.append(x.getCarId());
                m.append(x.getManufacturer());
                m.endRow();
                p.beginRow();
                p.append(x.getCarId());
                p.append(x.getPrice());
                p.endRow();
            }
        }
        try (Statement s = c.createStatement()) {
            // Sorted by value, as optimize() leaves quackjvm's index tables.
            s.execute("CREATE TABLE " + schema + ".idx_m AS SELECT * FROM " + schema + ".idx_m_load ORDER BY value");
            s.execute("CREATE TABLE " + schema + ".idx_p AS SELECT * FROM " + schema + ".idx_p_load ORDER BY value");
            s.execute("DROP TABLE " + schema + ".idx_m_load");
            s.execute("DROP TABLE " + schema + ".idx_p_load");
            s.execute(catalog == null ? "CHECKPOINT" : "CHECKPOINT " + catalog);
        }
    }

    private static DuckDBAppender appender(DuckDBConnection c, String catalog, String table) throws SQLException {
        return catalog == null ? c.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table)
                : c.createAppender(catalog, DuckDBConnection.DEFAULT_SCHEMA, table);
    }

    private static void drain(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }

    private static void check(Car car, int key) {
        if (car == null || car.getCarId() != key) {
            throw new IllegalStateException("lookup(" + key + ") returned " + car);
        }
    }

    private static double median(long[] s) {
        long[] sorted = s.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e3;
    }

    private static void write(Path out, int n, Map<String, long[]> samples, double minutes) throws IOException {
        Map<String, Double> m = new LinkedHashMap<>();
        samples.forEach((k, v) -> m.put(k, median(v)));
        StringBuilder md = new StringBuilder();
        md.append("# Statement floors: DuckDB next to CQEngine DiskPersistence\n\n");
        md.append(String.format(Locale.ROOT, "Generated by `io.quackjvm.bench.probes.StatementFloors` (%,d cars, %d "
                + "interleaved samples per row, %.1f min, %d cores, Java %s). Medians in µs; every row was measured "
                + "in the same JVM, sample by sample in rotation, so the ratios hold even on a busy machine.%n%n",
                n, SAMPLES, minutes, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
        md.append("| measurement | median µs | ÷ DiskPersistence |\n|---|--:|--:|\n");
        for (Map.Entry<String, Double> e : m.entrySet()) {
            String kind = e.getKey().substring(0, e.getKey().indexOf(':'));
            Double base = m.get((kind.equals("floor") ? "lookup" : kind) + ": DiskPersistence");
            md.append(String.format(Locale.ROOT, "| %s | %,.0f | %s |%n", e.getKey(), e.getValue(),
                    base == null ? "–" : String.format(Locale.ROOT, "%.2f×", e.getValue() / base)));
        }
        md.append("\nFloors are compared with the DiskPersistence point lookup.\n");
        Files.createDirectories(out);
        Files.writeString(out.resolve("summary.md"), md.toString());
        System.out.print(md);
    }

}
