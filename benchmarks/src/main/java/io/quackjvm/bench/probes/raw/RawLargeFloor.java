package io.quackjvm.bench.probes.raw;

import java.nio.file.*; import java.sql.*; import org.duckdb.*; import java.util.*;
/**
 * One transaction of N keys into a table whose key must be unique, under a DuckDB memory_limit, in several shapes.
 * Args: N, memory_limit (e.g. 64MB), shape (append-pk | insert-pk | stage-insert | stage-insert-ordered |
 * fresh-index-after | nopk), dir. Prints success or DuckDB's error, times, VmHWM of the process.
 */
public class RawLargeFloor {
  public static void main(String[] a) throws Exception {
    long n = Long.parseLong(a[0]); String limit = a[1]; String shape = a[2]; Path dir = Path.of(a[3]);
    Files.createDirectories(dir);
    Path db = dir.resolve(shape + ".duckdb");
    Files.deleteIfExists(db); Files.deleteIfExists(Path.of(db + ".wal"));
    String gen = "SELECT range::BIGINT AS k, (md5(range::VARCHAR) || md5((range + 7)::VARCHAR))::BLOB AS b FROM range(" + n + ")";
    long t0 = System.nanoTime(); String phase = "setup"; String outcome = "committed";
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
      s.execute("SET memory_limit='" + limit + "'");
      s.execute("SET temp_directory='" + dir.resolve("tmp") + "'");
      s.execute("SET threads=2");
      if (a.length > 4 && a[4].equals("knobs")) { s.execute("SET threads=1"); s.execute("SET preserve_insertion_order=false"); shape = shape; }
      s.execute("CREATE TABLE t(k BIGINT" + (shape.equals("nopk") || shape.equals("fresh-index-after") ? "" : " PRIMARY KEY") + ", b BLOB)");
      s.execute("BEGIN TRANSACTION");
      try {
        switch (shape) {
          case "append-pk" -> {
            phase = "append";
            byte[] b = new byte[64]; Random r = new Random(1);
            try (DuckDBAppender ap = ((DuckDBConnection) c).createAppender(DuckDBConnection.DEFAULT_SCHEMA, "t")) {
              for (long i = 0; i < n; i++) { r.nextBytes(b); ap.beginRow(); ap.append(i); ap.append(b); ap.endRow(); }
            }
          }
          case "insert-pk", "nopk" -> { phase = "insert"; s.execute("INSERT INTO t " + gen); }
          case "stage-insert", "stage-insert-ordered" -> {
            phase = "stage"; s.execute("CREATE TABLE st(k BIGINT, b BLOB)"); s.execute("INSERT INTO st " + gen);
            phase = "insert-select"; s.execute("INSERT INTO t SELECT k, b FROM st" + (shape.endsWith("ordered") ? " ORDER BY k" : ""));
            s.execute("DROP TABLE st");
          }
          case "fresh-index-after" -> {
            phase = "insert"; s.execute("INSERT INTO t " + gen);
            phase = "create-index"; s.execute("CREATE UNIQUE INDEX t_k ON t(k)");
          }
          default -> throw new IllegalArgumentException(shape);
        }
        phase = "before-commit";
        try (ResultSet rs = s.executeQuery("SELECT tag, memory_usage_bytes, temporary_storage_bytes FROM duckdb_memory() WHERE memory_usage_bytes > 1000000 OR temporary_storage_bytes > 1000000")) {
          StringBuilder m = new StringBuilder(); while (rs.next()) m.append(rs.getString(1)).append('=').append(rs.getLong(2) >> 20).append("MB/tmp ").append(rs.getLong(3) >> 20).append("MB ");
          System.out.println("  memory before commit: " + m);
        }
        phase = "commit"; s.execute("COMMIT");
      } catch (SQLException e) {
        outcome = "FAILED in " + phase + ": " + e.getMessage().replace('\n', ' ');
      }
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    String hwm = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmHWM")).findFirst().orElse("?");
    System.out.printf("N=%,d limit=%s shape=%s" + (a.length > 4 ? " (" + a[4] + ")" : "") + ": %s, %,d ms, %s, file %,d MB%n", n, limit, shape,
        outcome.length() > 220 ? outcome.substring(0, 220) : outcome, ms, hwm.replaceAll("\\s+", " "), Files.size(db) >> 20);
  }
}
