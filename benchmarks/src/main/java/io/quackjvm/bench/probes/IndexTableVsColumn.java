package io.quackjvm.bench.probes;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;
import java.util.Random;
/**
 * Should an index on an attribute that is one column of a columnar table read that column instead of its own
 * {@code (key, value)} table? Raw SQL, the same statements the engine would issue either way, on a file-backed
 * table of N rows with an INTEGER attribute of 50,000 distinct values; prints medians and database sizes.
 * Argument: N (default 1,000,000). Results: benchmarks/results/current/index-table-vs-column.md, quoted in docs/columnar.md.
 */
public final class IndexTableVsColumn {

    private IndexTableVsColumn() {
    }

  static double median(PreparedStatement ps, int n, java.util.function.IntUnaryOperator param) throws Exception {
    long[] t = new long[n];
    for (int i = 0; i < n; i++) { ps.setInt(1, param.applyAsInt(i)); long s = System.nanoTime(); try (ResultSet rs = ps.executeQuery()) { while (rs.next()) { rs.getObject(1); } } t[i] = System.nanoTime() - s; }
    Arrays.sort(t); return t[n / 2] / 1000.0;
  }
  static long size(Connection c) throws Exception { try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT used_blocks * block_size FROM pragma_database_size()")) { rs.next(); return rs.getLong(1); } }
  public static void main(String[] a) throws Exception {
    int rows = a.length > 0 ? Integer.parseInt(a[0]) : 1_000_000;
    for (String variant : new String[]{"column", "table"}) {
      java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("index-vs-column"); String file = dir.resolve(variant + ".duckdb").toString();
      Properties p = new Properties(); p.setProperty("disabled_optimizers", "statistics_propagation");
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, p); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE car(_key INTEGER PRIMARY KEY, manufacturer VARCHAR, model VARCHAR, price DOUBLE, year INTEGER)");
        s.execute("INSERT INTO car SELECT range, 'maker' || (range % 50), 'model' || (range % 500), (range * 37 % 100000) / 3.0, (hash(range) % 50000)::INTEGER FROM range(" + rows + ")");
        if (variant.equals("table")) {
          s.execute("CREATE TABLE car_idx_year(_key INTEGER, value INTEGER)");
          s.execute("INSERT INTO car_idx_year SELECT _key, year FROM car ORDER BY year");
        }
        s.execute("CHECKPOINT");
        long bytes = size(c);
        String src = variant.equals("table") ? "car_idx_year" : "(SELECT _key, year AS value FROM car)";
        String cols = "manufacturer, model, price, year";
        String eq = variant.equals("table") ? "SELECT " + cols + " FROM car WHERE _key IN (SELECT _key FROM car_idx_year WHERE value = ?)" : "SELECT " + cols + " FROM car WHERE year = ?";
        String cnt = variant.equals("table") ? "SELECT count(*) FROM car_idx_year WHERE value = ?" : "SELECT count(*) FROM car WHERE year = ?";
        String range = variant.equals("table") ? "SELECT " + cols + " FROM car WHERE _key IN (SELECT _key FROM car_idx_year WHERE value BETWEEN ? AND ? + 2)" : "SELECT " + cols + " FROM car WHERE year BETWEEN ? AND ? + 2";
        try (PreparedStatement e = c.prepareStatement(eq); PreparedStatement n = c.prepareStatement(cnt); PreparedStatement r = c.prepareStatement(range)) {
          Random rnd = new Random(1);
          median(e, 50, i -> rnd.nextInt(50000)); median(n, 50, i -> rnd.nextInt(50000));
          double me = median(e, 300, i -> rnd.nextInt(50000)), mn = median(n, 300, i -> rnd.nextInt(50000));
          long[] tr = new long[300]; for (int i = 0; i < tr.length; i++) { int v = rnd.nextInt(50000); r.setInt(1, v); r.setInt(2, v); long s0 = System.nanoTime(); try (ResultSet rs = r.executeQuery()) { while (rs.next()) rs.getObject(1); } tr[i] = System.nanoTime() - s0; }
          Arrays.sort(tr);
          System.out.printf("%s rows=%d bytes=%.1f MB equal(~%d matches)=%.0f us count=%.0f us narrow-range=%.0f us%n", variant, rows, bytes / 1e6, rows / 50000, me, mn, tr[150] / 1000.0);
        }
      }
    }
  }
}
