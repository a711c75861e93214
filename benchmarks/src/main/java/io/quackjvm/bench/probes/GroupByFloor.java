package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The floor under a group-by over every car: how fast can DuckDB itself answer {@code count(*), avg(price)} per
 * manufacturer over N rows, whatever the statement or the shape of the column, next to the heap doing it by
 * iteration (the baseline), in one JVM, interleaved. Raw JDBC on a file database holding only the two
 * columns (nothing of ours in between), each statement prepared once and kept, after a checkpoint (so the
 * columns are compressed as a collection at rest is). Shapes: the manufacturer as VARCHAR (what the columnar
 * layout stores), as an ENUM, as a small integer code (which DuckDB groups with its perfect hash table), the
 * table ordered by manufacturer, and one thread against two. Also the plain scan floors: {@code sum(price)} over
 * every row and {@code SELECT 1}.
 *
 * <p>Arguments: N (default 1,000,000), rounds (default 31). Prints a Markdown table of medians.
 */
public final class GroupByFloor {

    private GroupByFloor() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 31;
        List<Car> cars = CarGenerator.cars(0, n);
        // The baseline iterates a CQEngine collection on the heap, as AnswersProbe's does.
        ConcurrentIndexedCollection<Car> onHeap = new ConcurrentIndexedCollection<>();
        onHeap.addAll(cars);
        java.nio.file.Path file = java.nio.file.Files.createTempFile("groupby-floor", ".duckdb");
        java.nio.file.Files.delete(file);
        Map<String, List<Double>> times = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file)) {
            load(c, cars);
            Map<String, String> statements = new LinkedHashMap<>();
            statements.put("VARCHAR manufacturer: count + avg", "SELECT manufacturer, count(*), avg(price) FROM car GROUP BY 1");
            statements.put("VARCHAR manufacturer: avg alone", "SELECT manufacturer, avg(price) FROM car GROUP BY 1");
            statements.put("ENUM manufacturer: count + avg", "SELECT m_enum, count(*), avg(price) FROM car GROUP BY 1");
            statements.put("UTINYINT code (perfect hash): count + sum", "SELECT m_code, count(*), sum(price) FROM car GROUP BY 1");
            statements.put("table ordered by manufacturer: count + avg", "SELECT manufacturer, count(*), avg(price) FROM car_sorted GROUP BY 1");
            statements.put("scan floor: sum(price), count(*) of every row", "SELECT sum(price), count(*) FROM car");
            statements.put("statement floor: SELECT 1", "SELECT 1");
            Map<String, PreparedStatement> prepared = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : statements.entrySet()) {
                prepared.put(e.getKey(), c.prepareStatement(e.getValue()));
            }
            try (Statement s = c.createStatement()) {
                for (int r = 0; r < rounds; r++) {
                    time(times, "heap: iterate every car, count + avg per manufacturer", () -> heap(onHeap));
                    for (Map.Entry<String, PreparedStatement> e : prepared.entrySet()) {
                        time(times, "DuckDB, 2 threads: " + e.getKey(), () -> drain(e.getValue()));
                    }
                    s.execute("SET threads = 1");
                    time(times, "DuckDB, 1 thread: VARCHAR manufacturer: count + avg",
                            () -> drain(prepared.get("VARCHAR manufacturer: count + avg")));
                    s.execute("RESET threads");
                }
            }
            for (PreparedStatement p : prepared.values()) {
                p.close();
            }
        } finally {
            java.nio.file.Files.deleteIfExists(file);
            java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(file + ".wal"));
        }
        double heap = median(times.get("heap: iterate every car, count + avg per manufacturer"));
        System.out.printf(Locale.ROOT, "| measurement (%d cars, %d rounds interleaved) | median ms | x heap |%n", n, rounds);
        System.out.println("|---|---:|---:|");
        for (Map.Entry<String, List<Double>> e : times.entrySet()) {
            double m = median(e.getValue());
            System.out.printf(Locale.ROOT, "| %s | %.2f | %.3f |%n", e.getKey(), m, m / heap);
        }
    }

    private static void load(Connection c, List<Car> cars) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE car (manufacturer VARCHAR, price DOUBLE)");
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO car VALUES (?, ?)")) {
            c.setAutoCommit(false);
            int i = 0;
            for (Car car : cars) {
                p.setString(1, car.getManufacturer());
                p.setDouble(2, car.getPrice());
                p.addBatch();
                if (++i % 10_000 == 0) {
                    p.executeBatch();
                }
            }
            p.executeBatch();
            c.commit();
            c.setAutoCommit(true);
        }
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TYPE maker AS ENUM (SELECT DISTINCT manufacturer FROM car WHERE manufacturer IS NOT NULL)");
            s.execute("ALTER TABLE car ADD COLUMN m_enum maker");
            s.execute("UPDATE car SET m_enum = manufacturer");
            s.execute("ALTER TABLE car ADD COLUMN m_code UTINYINT");
            s.execute("UPDATE car SET m_code = (SELECT r FROM (SELECT manufacturer m, row_number() OVER (ORDER BY "
                    + "manufacturer) - 1 AS r FROM (SELECT DISTINCT manufacturer FROM car)) WHERE m = car.manufacturer)");
            s.execute("CREATE TABLE car_sorted AS SELECT * FROM car ORDER BY manufacturer");
            s.execute("CHECKPOINT");
        }
    }

    private static double heap(Iterable<Car> cars) {
        Map<String, double[]> groups = new HashMap<>();
        for (Car car : cars) {
            double[] g = groups.computeIfAbsent(car.getManufacturer(), k -> new double[2]);
            g[0]++;
            g[1] += car.getPrice();
        }
        return groups.size();
    }

    private static double drain(PreparedStatement p) {
        try (ResultSet rs = p.executeQuery()) {
            double rows = 0;
            while (rs.next()) {
                rs.getObject(1);
                rows++;
            }
            return rows;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private interface Body {
        double run() throws Exception;
    }

    private static void time(Map<String, List<Double>> times, String name, Body body) throws Exception {
        long t = System.nanoTime();
        body.run();
        times.computeIfAbsent(name, k -> new ArrayList<>()).add((System.nanoTime() - t) / 1e6);
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
