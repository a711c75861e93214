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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * Raw DuckDB shapes for a narrow range (~50 matches) on a covering index table as quackjvm lays it out
 * ({@code (_key INTEGER, value BIGINT, o_object BLOB)}, the value a Double in its order-preserving BIGINT form),
 * nothing of ours in between: bound parameters against bounds written into the SQL, a table sorted by value
 * against an unsorted one with an ART on value, and the sorted table with an ART. Interleaved samples, medians in
 * µs. Arguments: sizes (default 500000,1000000,2000000,4000000), samples (default 300), a filter on shape names.
 */
public final class NarrowRangeLiterals {


    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "500000,1000000,2000000,4000000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int samples = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        String only = args.length > 2 ? args[2] : "";
        for (int n : sizes) {
            run(n, samples, only);
        }
    }

    static long enc(double d) {
        long bits = Double.doubleToLongBits(d);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    static void run(int n, int samples, String only) throws Exception {
        Path dir = Files.createTempDirectory("narrowlit-");
        Properties props = new Properties();
        props.setProperty("disabled_optimizers", "statistics_propagation");
        props.setProperty("jdbc_stream_results", "true");
        long t0 = System.nanoTime();
        try (Connection root = DriverManager.getConnection("jdbc:duckdb:", props);
             Statement s0 = root.createStatement()) {
            s0.execute("ATTACH '" + dir.resolve("db.duckdb") + "' AS q (ROW_GROUP_SIZE 16384)");
            s0.execute("USE q");
            s0.execute("CREATE TABLE raw (_key INTEGER, value BIGINT, o_object BLOB)");
            SplittableRandom r = new SplittableRandom(1);
            byte[] blob = new byte[110];
            try (DuckDBAppender a = ((DuckDBConnection) root).createAppender("q", "main", "raw")) {
                for (int k = 0; k < n; k++) {
                    r.nextBytes(blob);
                    a.beginRow(); a.append(k); a.append(enc(1000 + r.nextDouble() * 99000)); a.append(blob); a.endRow();
                }
            }
            s0.execute("CREATE TABLE cov AS SELECT * FROM raw ORDER BY value, _key");
            s0.execute("CREATE TABLE covart AS SELECT * FROM raw ORDER BY _key");
            long ta = System.nanoTime();
            s0.execute("CREATE INDEX covart_v ON covart (value)");
            long artMs = (System.nanoTime() - ta) / 1_000_000;
            s0.execute("CREATE TABLE covsortart AS SELECT * FROM raw ORDER BY value, _key");
            s0.execute("CREATE INDEX covsortart_v ON covsortart (value)");
            s0.execute("DROP TABLE raw");
            s0.execute("CHECKPOINT");
            System.out.printf("built n=%,d in %.1f s (ART build %d ms)%n", n, (System.nanoTime() - t0) / 1e9, artMs);
            try (ResultSet rs = s0.executeQuery("SELECT table_name, estimated_size FROM duckdb_tables()")) {
                while (rs.next()) System.out.println("  table " + rs.getString(1) + " rows " + rs.getLong(2));
            }
            try (ResultSet rs = s0.executeQuery("SELECT name, value FROM duckdb_settings() WHERE name LIKE 'index_scan%'")) {
                while (rs.next()) System.out.println("  setting " + rs.getString(1) + " = " + rs.getString(2));
            }

            Connection c = ((DuckDBConnection) root).duplicate();
            try (Statement u = c.createStatement()) { u.execute("USE q"); }
            double width = 50.0 * 99000 / n;
            SplittableRandom q = new SplittableRandom(7);
            long[] lo = new long[samples];
            long[] hi = new long[samples];
            for (int i = 0; i < samples; i++) {
                double l = 1000 + q.nextDouble() * (99000 - width);
                lo[i] = enc(l);
                hi[i] = enc(l + width);
            }
            explain(c, "SELECT o_object FROM covart WHERE value >= CAST(" + lo[0] + " AS BIGINT) AND value <= CAST(" + hi[0] + " AS BIGINT)");
            explain(c, "SELECT o_object FROM covart WHERE value BETWEEN " + lo[0] + " AND " + hi[0]);
            explain(c, "SELECT o_object FROM cov WHERE value >= CAST(" + lo[0] + " AS BIGINT) AND value <= CAST(" + hi[0] + " AS BIGINT)");

            Map<String, NarrowRangeShapes.Probe> probes = new LinkedHashMap<>();
            PreparedStatement covP = c.prepareStatement("SELECT o_object FROM cov WHERE value >= ? AND value <= ?");
            probes.put("sorted, parameters (today)", i -> range(covP, lo[i], hi[i]));
            probes.put("sorted, literals >= AND <=", i -> literal(c, "cov", ">= AND <=", lo[i], hi[i]));
            probes.put("sorted, literals BETWEEN", i -> literal(c, "cov", "BETWEEN", lo[i], hi[i]));
            probes.put("sorted, CAST literals", i -> literal(c, "cov", "CAST", lo[i], hi[i]));
            PreparedStatement covPL = c.prepareStatement("SELECT o_object FROM cov WHERE value >= ? AND value <= ? LIMIT 1025");
            probes.put("sorted, parameters, LIMIT 1025 (library today)", i -> range(covPL, lo[i], hi[i]));
            probes.put("sorted, literals prepared and closed, LIMIT 1025 (library literal)", i -> {
                try (PreparedStatement p = c.prepareStatement("SELECT o_object FROM cov WHERE value >= CAST(" + lo[i]
                        + " AS BIGINT) AND value <= CAST(" + hi[i] + " AS BIGINT) LIMIT 1025")) {
                    return drain(p);
                }
            });
            PreparedStatement artP = c.prepareStatement("SELECT o_object FROM covart WHERE value >= ? AND value <= ?");
            probes.put("unsorted + ART, parameters", i -> range(artP, lo[i], hi[i]));
            probes.put("unsorted + ART, literals >= AND <=", i -> literal(c, "covart", ">= AND <=", lo[i], hi[i]));
            probes.put("unsorted + ART, literals BETWEEN", i -> literal(c, "covart", "BETWEEN", lo[i], hi[i]));
            probes.put("unsorted + ART, CAST literals", i -> literal(c, "covart", "CAST", lo[i], hi[i]));
            probes.put("sorted + ART, CAST literals", i -> literal(c, "covsortart", "CAST", lo[i], hi[i]));
            PreparedStatement one = c.prepareStatement("SELECT 1");
            probes.put("floor: prepared SELECT 1", i -> drain(one));
            probes.put("floor: new SQL SELECT literal", i -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + lo[i])) { rs.next(); return 0; }
            });
            probes.entrySet().removeIf(e -> !only.isEmpty() && !e.getKey().contains(only) && !e.getKey().contains("today"));
            NarrowRangeShapes.interleave(probes, n, samples);
            c.close();
        } finally {
            try (var w = Files.walk(dir)) { w.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete()); }
        }
    }

    static void explain(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
            while (rs.next()) {
                String plan = rs.getString(2);
                System.out.println("EXPLAIN " + sql.substring(0, Math.min(60, sql.length())) + "...: "
                        + (plan.contains("Type: Index Scan") || plan.contains("INDEX_SCAN") ? "INDEX SCAN" : "")
                        + (plan.contains("Filters") ? " filters pushed" : " NO pushed filter"));
            }
        }
    }

    static int literal(Connection c, String table, String form, long lo, long hi) throws Exception {
        String where = switch (form) {
            case "BETWEEN" -> "value BETWEEN " + lo + " AND " + hi;
            case "CAST" -> "value >= CAST(" + lo + " AS BIGINT) AND value <= CAST(" + hi + " AS BIGINT)";
            default -> "value >= " + lo + " AND value <= " + hi;
        };
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT o_object FROM " + table + " WHERE " + where)) {
            int m = 0;
            while (rs.next()) { rs.getBytes(1); m++; }
            return m;
        }
    }

    static int range(PreparedStatement p, long lo, long hi) throws Exception {
        p.setLong(1, lo);
        p.setLong(2, hi);
        return drain(p);
    }

    static int drain(PreparedStatement p) throws Exception {
        int m = 0;
        try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) { rs.getObject(1); m++; }
        }
        return m;
    }
}
