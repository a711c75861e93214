package io.quackjvm.bench.probes;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * Raw DuckDB shapes for a narrow range (~40 matches) on a value column, at several collection sizes, nothing of
 * ours in between: the object table {@code (_key INTEGER PRIMARY KEY, object BLOB)} and an index table
 * {@code (_key, value DOUBLE)} sorted by value, against a covering index table {@code (value, _key, object)}
 * (sorted, or unsorted with an ART on value), and several ways to fetch objects by key. Interleaved samples,
 * medians in µs. Arguments: sizes (default 500000,1000000,4000000), samples (default 400).
 */
public final class NarrowRangeShapes {

    /** One shape: runs sample {@code i}, returns the rows it read. */
    interface Probe {
        int run(int i) throws Exception;
    }

    /**
     * Runs every probe once per sample, in rotation, and prints a table of medians (after dropping the first tenth
     * of the samples as warm-up) with the mean number of rows each read.
     */
    static void interleave(Map<String, Probe> probes, int n, int samples) throws Exception {
        Map<String, long[]> times = new LinkedHashMap<>();
        for (String k : probes.keySet()) times.put(k, new long[samples]);
        int[] rows = new int[probes.size()];
        for (int i = 0; i < samples; i++) {
            int j = 0;
            for (Map.Entry<String, Probe> e : probes.entrySet()) {
                long t = System.nanoTime();
                int m = e.getValue().run(i);
                times.get(e.getKey())[i] = System.nanoTime() - t;
                rows[j++] += m;
            }
        }
        System.out.printf("%n## n = %,d (%d samples, load %s)%n| shape | median µs | rows |%n|---|--:|--:|%n", n, samples,
                Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        int j = 0;
        for (Map.Entry<String, long[]> e : times.entrySet()) {
            long[] t = e.getValue();
            Arrays.sort(t, samples / 10, samples);
            System.out.printf("| %s | %,.0f | %.1f |%n", e.getKey(), t[samples / 10 + (samples - samples / 10) / 2] / 1e3, rows[j++] / (double) samples);
        }
    }

    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "500000,1000000,4000000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int samples = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        String only = args.length > 2 ? args[2] : "";
        for (int n : sizes) {
            run(n, samples, only);
        }
    }

    static void run(int n, int samples, String only) throws Exception {
        Path dir = Files.createTempDirectory("narrow-");
        Properties props = new Properties();
        props.setProperty("disabled_optimizers", "statistics_propagation");
        props.setProperty("jdbc_stream_results", "true");
        try (Connection root = DriverManager.getConnection("jdbc:duckdb:", props);
             Statement s0 = root.createStatement()) {
            s0.execute("ATTACH '" + dir.resolve("db.duckdb") + "' AS q (ROW_GROUP_SIZE 16384)");
            s0.execute("USE q");
            s0.execute("CREATE TABLE obj (_key INTEGER PRIMARY KEY, object BLOB)");
            s0.execute("CREATE TABLE idx (_key INTEGER, value DOUBLE)");
            SplittableRandom r = new SplittableRandom(1);
            double[] price = new double[n];
            byte[] blob = new byte[110];
            try (DuckDBAppender a = ((DuckDBConnection) root).createAppender("q", "main", "obj");
                 DuckDBAppender b = ((DuckDBConnection) root).createAppender("q", "main", "idx")) {
                for (int k = 0; k < n; k++) {
                    price[k] = 1000 + r.nextDouble() * 99000;
                    r.nextBytes(blob);
                    a.beginRow(); a.append(k); a.append(blob); a.endRow();
                    b.beginRow(); b.append(k); b.append(price[k]); b.endRow();
                }
            }
            s0.execute("CREATE OR REPLACE TABLE idx AS SELECT * FROM idx ORDER BY value, _key");
            s0.execute("CREATE TABLE cov AS SELECT i.value, i._key, o.object FROM idx i JOIN obj o USING (_key) ORDER BY i.value, i._key");
            s0.execute("CREATE TABLE covart AS SELECT i.value, i._key, o.object FROM idx i JOIN obj o USING (_key) ORDER BY i._key");
            s0.execute("CREATE INDEX covart_v ON covart (value)");
            s0.execute("CREATE TABLE idxart AS SELECT * FROM idx ORDER BY _key");
            s0.execute("CREATE INDEX idxart_v ON idxart (value)");
            s0.execute("CHECKPOINT");
            try (ResultSet rs = s0.executeQuery("SELECT name, value FROM duckdb_settings() WHERE name LIKE '%index%'")) {
                while (rs.next()) System.out.println("setting " + rs.getString(1) + " = " + rs.getString(2));
            }

            Connection c = ((DuckDBConnection) root).duplicate();
            try (Statement u = c.createStatement()) { u.execute("USE q"); }
            double width = 40.0 * 99000 / n;
            SplittableRandom q = new SplittableRandom(7);
            double[] lows = new double[samples];
            for (int i = 0; i < samples; i++) lows[i] = 1000 + q.nextDouble() * (99000 - width);

            Map<String, Probe> probes = new LinkedHashMap<>();
            PreparedStatement semi = c.prepareStatement("SELECT object FROM obj WHERE _key IN (SELECT _key FROM idx WHERE value BETWEEN ? AND ?)");
            probes.put("today: semi-join obj by sorted idx", i -> range(semi, lows[i], width));
            PreparedStatement keys = c.prepareStatement("SELECT _key FROM idx WHERE value BETWEEN ? AND ?");
            probes.put("keys only, sorted idx", i -> range(keys, lows[i], width));
            PreparedStatement artKeys = c.prepareStatement("SELECT _key FROM idxart WHERE value BETWEEN ? AND ?");
            probes.put("keys only, unsorted idx + ART", i -> range(artKeys, lows[i], width));
            PreparedStatement cov = c.prepareStatement("SELECT object FROM cov WHERE value BETWEEN ? AND ?");
            probes.put("covering, sorted", i -> range(cov, lows[i], width));
            PreparedStatement covArt = c.prepareStatement("SELECT object FROM covart WHERE value BETWEEN ? AND ?");
            probes.put("covering, unsorted + ART on value", i -> range(covArt, lows[i], width));
            PreparedStatement covFixed = c.prepareStatement("SELECT object FROM cov WHERE value BETWEEN " + lows[0] + " AND " + (lows[0] + width));
            probes.put("covering, sorted, fixed constants, prepared once", i -> drain(covFixed));
            probes.put("covering, sorted, constants in new SQL each time", i -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT object FROM cov WHERE value BETWEEN " + lows[i] + " AND " + (lows[i] + width))) { int m = 0; while (rs.next()) { rs.getBytes(1); m++; } return m; }
            });
            PreparedStatement one = c.prepareStatement("SELECT 1");
            probes.put("floor: SELECT 1", i -> drain(one));
            PreparedStatement oneP = c.prepareStatement("SELECT count(*) FROM (SELECT 1 FROM cov LIMIT 1) WHERE 1 = ?");
            probes.put("floor: one-row read of cov with a parameter", i -> { oneP.setInt(1, 1); return drain(oneP); });
            // two statements: keys, then objects
            Map<Integer, PreparedStatement> inLists = new java.util.HashMap<>();
            probes.put("keys, then IN (?...) padded to 64", i -> {
                List<Integer> ks = keys(keys, lows[i], width);
                PreparedStatement p = inLists.computeIfAbsent(64, m -> prep(c, "SELECT object FROM obj WHERE _key IN (" + "?,".repeat(m - 1) + "?)"));
                for (int j = 0; j < 64; j++) p.setInt(j + 1, ks.isEmpty() ? -1 : ks.get(Math.min(j, ks.size() - 1)));
                return drain(p);
            });
            probes.put("keys, then UNION ALL of _key = const (new SQL)", i -> {
                List<Integer> ks = keys(keys, lows[i], width);
                StringBuilder sb = new StringBuilder();
                for (int k : ks) { if (sb.length() > 0) sb.append(" UNION ALL "); sb.append("SELECT object FROM obj WHERE _key = ").append(k); }
                if (ks.isEmpty()) return 0;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sb.toString())) { int m = 0; while (rs.next()) { rs.getBytes(1); m++; } return m; }
            });
            probes.put("keys, then IN (const list) (new SQL)", i -> {
                List<Integer> ks = keys(keys, lows[i], width);
                if (ks.isEmpty()) return 0;
                StringBuilder sb = new StringBuilder("SELECT object FROM obj WHERE _key IN (");
                for (int j = 0; j < ks.size(); j++) sb.append(j == 0 ? "" : ",").append(ks.get(j));
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sb.append(')').toString())) { int m = 0; while (rs.next()) { rs.getBytes(1); m++; } return m; }
            });
            probes.entrySet().removeIf(e -> !only.isEmpty() && !e.getKey().contains(only) && !e.getKey().startsWith("today"));
            interleave(probes, n, samples);
            c.close();
        } finally {
            try (var w = Files.walk(dir)) { w.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete()); }
        }
    }

    static PreparedStatement prep(Connection c, String sql) {
        try { return c.prepareStatement(sql); } catch (Exception e) { throw new RuntimeException(e); }
    }

    static int range(PreparedStatement p, double lo, double width) throws Exception {
        p.setDouble(1, lo);
        p.setDouble(2, lo + width);
        return drain(p);
    }

    static List<Integer> keys(PreparedStatement p, double lo, double width) throws Exception {
        p.setDouble(1, lo);
        p.setDouble(2, lo + width);
        List<Integer> out = new ArrayList<>();
        try (ResultSet rs = p.executeQuery()) { while (rs.next()) out.add(rs.getInt(1)); }
        return out;
    }

    static int drain(PreparedStatement p) throws Exception {
        int m = 0;
        try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) { rs.getObject(1); m++; }
        }
        return m;
    }
}
