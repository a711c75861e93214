package io.quackjvm.bench.probes;

import java.sql.*;
import java.util.*;

/**
 * Raw DuckDB, nothing of ours: one-row lookups by primary key (a prepared statement, every column read with
 * getObject) on a file of {@code n} car-like rows, in five shapes interleaved: the blob layout's (key, BLOB),
 * seven typed columns (default compression, and every column USING COMPRESSION uncompressed), the seven as one
 * STRUCT column, the row as a STRUCT ({@code SELECT t FROM t}), the six scalar columns, the LIST column alone, and one
 * INTEGER column alone. Medians in µs. Arguments: rows, samples, file.
 */
public final class ColumnarLookupShapes {
    private ColumnarLookupShapes() {
    }

  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]); int samples = Integer.parseInt(a[1]);
    String file = a[2];
    new java.io.File(file).delete(); new java.io.File(file + ".wal").delete();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
      String cols = "id INTEGER PRIMARY KEY, manufacturer VARCHAR, model VARCHAR, colour VARCHAR, doors INTEGER, price DOUBLE, features VARCHAR[], year INTEGER";
      String gen = "i, 'maker' || (i % 20), 'model' || (i % 200), 'colour' || (i % 8), 2 + i % 3, (i % 50000) * 1.25, ['a' || (i%5), 'b'], 1990 + i % 30";
      s.execute("create table cdef(" + cols + ")");
      s.execute("create table cunc(" + cols.replace("VARCHAR,", "VARCHAR USING COMPRESSION uncompressed,").replace("INTEGER,", "INTEGER USING COMPRESSION uncompressed,").replace("DOUBLE,", "DOUBLE USING COMPRESSION uncompressed,") + ")");
      s.execute("create table cstruct(id INTEGER PRIMARY KEY, o STRUCT(manufacturer VARCHAR, model VARCHAR, colour VARCHAR, doors INTEGER, price DOUBLE, features VARCHAR[], year INTEGER))");
      s.execute("create table blob(id INTEGER PRIMARY KEY, object BLOB USING COMPRESSION uncompressed)");
      s.execute("insert into cdef select " + gen + " from range(" + n + ") r(i)");
      s.execute("insert into cunc select * from cdef");
      s.execute("insert into cstruct select id, {manufacturer: manufacturer, model: model, colour: colour, doors: doors, price: price, features: features, year: year} from cdef");
      s.execute("insert into blob select id, (manufacturer || model || colour || doors || price || year || 'padding-to-about-120-bytes-of-kryo-payload-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')::BLOB from cdef");
      s.execute("checkpoint");
      String[] qs = {"select object from blob where id = ?", "select manufacturer, model, colour, doors, price, features, year from cdef where id = ?",
        "select manufacturer, model, colour, doors, price, features, year from cunc where id = ?", "select o from cstruct where id = ?",
        "select cdef from cdef where id = ?", "select manufacturer, model, colour, doors, price, year from cdef where id = ?",
        "select features from cdef where id = ?", "select doors from cdef where id = ?"};
      PreparedStatement[] ps = new PreparedStatement[qs.length];
      for (int i = 0; i < qs.length; i++) ps[i] = c.prepareStatement(qs[i]);
      long[][] t = new long[qs.length][samples];
      Random r = new Random(1);
      for (int k = -200; k < samples; k++) for (int i = 0; i < qs.length; i++) {
        int key = r.nextInt(n); long t0 = System.nanoTime();
        ps[i].setInt(1, key); try (ResultSet rs = ps[i].executeQuery()) { rs.next(); int m = rs.getMetaData().getColumnCount(); for (int j = 1; j <= m; j++) rs.getObject(j); }
        if (k >= 0) t[i][k] = System.nanoTime() - t0; }
      for (int i = 0; i < qs.length; i++) { Arrays.sort(t[i]); System.out.printf("%8.1f us  %s%n", t[i][samples/2] / 1000.0, qs[i]); }
      for (PreparedStatement p : ps) p.close();
    }
  }
}
