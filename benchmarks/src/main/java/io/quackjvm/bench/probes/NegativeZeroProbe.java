package io.quackjvm.bench.probes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Raw DuckDB, nothing of ours: does a DOUBLE column keep the sign of zero across a checkpoint, per column
 * compression and data shape, and what does each compression cost in file size. Each case writes one table of
 * {@code rows} rows into a fresh file (a large INSERT already writes compressed row groups), checkpoints, and
 * counts the rows whose sign differs from the one the generating expression gives (kept in a temporary table); then reports the compression DuckDB used and the file size. Argument: rows
 * (default 1000000). The last variant, "companion", keeps the DOUBLE column as DuckDB stores it and adds a BOOLEAN
 * column that is TRUE only for -0.0 (NULL otherwise), read back as the sign. Negative zero is written as {@code -0.0::DOUBLE} (the minus applied to a DOUBLE zero): the string cast and a DECIMAL literal both give +0.0.
 */
public final class NegativeZeroProbe {

    private NegativeZeroProbe() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        String[][] shapes = {
                {"zeros of both signs only", "CASE WHEN i % 2 = 0 THEN 0.0::DOUBLE ELSE -0.0::DOUBLE END"},
                {"zeros of both signs and NULLs", "CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN 0.0::DOUBLE ELSE -0.0::DOUBLE END"},
                {"runs of 0.0 / -0.0 among prices", "CASE WHEN i % 10 < 4 THEN 0.0::DOUBLE WHEN i % 10 < 8 THEN -0.0::DOUBLE ELSE (i % 1000) * 0.25 END::DOUBLE"},
                {"prices (2 decimals), 1 in 7 is -0.0", "CASE WHEN i % 7 = 0 THEN -0.0::DOUBLE ELSE round(hash(i) % 100000 / 100.0, 2)::DOUBLE END"},
                {"random doubles, 1 in 7 is -0.0", "CASE WHEN i % 7 = 0 THEN -0.0::DOUBLE ELSE ((hash(i) % 1000000007) / 7.0)::DOUBLE END"},
        };
        String[] compressions = {"", "uncompressed", "rle", "alp", "alprd", "companion"};
        System.out.printf("| data | column compression | used after checkpoint | values whose sign changed | file MB |%n");
        System.out.printf("|---|---|---|---:|---:|%n");
        for (String[] shape : shapes) {
            for (String compression : compressions) {
                Path dir = Files.createTempDirectory("negzero");
                Path file = dir.resolve("t.duckdb");
                try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
                    boolean companion = compression.equals("companion");
                    String using = compression.isEmpty() || companion ? "" : " USING COMPRESSION " + compression;
                    if (companion) {
                        // the design that keeps the column a DOUBLE: a BOOLEAN beside it, TRUE only for -0.0
                        s.execute("CREATE TABLE t(id INTEGER, d0 DOUBLE, neg BOOLEAN)");
                        s.execute("INSERT INTO t SELECT i, v, CASE WHEN v = 0 AND signbit(v) THEN TRUE END FROM "
                                + "(SELECT i, " + shape[1] + " AS v FROM range(" + rows + ") r(i))");
                        s.execute("CREATE VIEW tv AS SELECT id, CASE WHEN neg THEN -0.0::DOUBLE ELSE d0 END AS d, d0 FROM t");
                    } else {
                        s.execute("CREATE TABLE t(id INTEGER, d DOUBLE" + using + ")");
                        s.execute("INSERT INTO t SELECT i, " + shape[1] + " FROM range(" + rows + ") r(i)");
                        s.execute("CREATE VIEW tv AS SELECT id, d, d AS d0 FROM t");
                    }
                    s.execute("CREATE TEMP TABLE ref AS SELECT i AS id, signbit(" + shape[1] + ") AS sb FROM range(" + rows
                            + ") r(i)");
                    s.execute("FORCE CHECKPOINT");
                    long changed = one(s, "SELECT count(*) FROM tv JOIN ref USING (id) WHERE signbit(tv.d) <> ref.sb");
                    String used = text(s, "SELECT string_agg(DISTINCT compression, ',' ORDER BY compression) "
                            + "FROM pragma_storage_info('t') WHERE column_name IN ('d', 'd0') AND segment_type = 'DOUBLE'");
                    s.execute("DROP TABLE ref");
                    c.close();
                    double mb = Files.size(file) / 1e6;
                    System.out.printf("| %s | %s | %s | %d | %.1f |%n", shape[0],
                            compression.isEmpty() ? "(default)" : compression, used, changed, mb);
                } finally {
                    try (var list = Files.list(dir)) {
                        for (Path p : (Iterable<Path>) list::iterator) {
                            Files.deleteIfExists(p);
                        }
                    }
                    Files.deleteIfExists(dir);
                }
            }
        }
    }

    private static long one(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private static String text(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }
}
