package io.quackjvm.bench.probes.raw;

import java.sql.*; import org.duckdb.*; import java.util.*;
public class RawStaging {
  static int N; static int[] keys; static byte[][] blobs;
  public static void main(String[] a) throws Exception {
    N = Integer.parseInt(a[0]); boolean shuffle = a.length > 2 && a[2].equals("shuffle");
    keys = new int[N]; for (int i=0;i<N;i++) keys[i]=i;
    if (shuffle) { Random r = new Random(1); for (int i=N-1;i>0;i--){int j=r.nextInt(i+1);int t=keys[i];keys[i]=keys[j];keys[j]=t;} }
    blobs = new byte[N][]; Random r = new Random(2); for (int i=0;i<N;i++){ blobs[i]=new byte[90]; r.nextBytes(blobs[i]); }
    int rounds = Integer.parseInt(a[1]);
    String[] shapes = a.length > 3 ? a[3].split(",") : new String[]{"direct","temp","table","tableOrdered","tempOrdered"};
    for (int round=0; round<rounds; round++) for (String shape : shapes) run(shape);
  }
  static void run(String shape) throws Exception {
    new java.io.File("/tmp/bulk6raw/x.db").delete(); new java.io.File("/tmp/bulk6raw/x.db.wal").delete();
    long t0=System.nanoTime(), tA, tI, tC;
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:/tmp/bulk6raw/x.db"); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t(_key INTEGER PRIMARY KEY, b BLOB)");
      t0=System.nanoTime();
      s.execute("BEGIN TRANSACTION");
      String target = "t", sch = null;
      if (shape.startsWith("temp")) { s.execute("CREATE TEMP TABLE st(_key INTEGER, seq INTEGER, b BLOB)"); target="st"; sch="temp"; }
      else if (shape.startsWith("table")) { s.execute("CREATE TABLE st(_key INTEGER, seq INTEGER, b BLOB)"); target="st"; }
      try (DuckDBAppender ap = (sch == null ? ((DuckDBConnection)c).createAppender(DuckDBConnection.DEFAULT_SCHEMA, target) : ((DuckDBConnection)c).createAppender(sch, DuckDBConnection.DEFAULT_SCHEMA, target))) {
        for (int i=0;i<N;i++){ ap.beginRow(); ap.append(keys[i]); if (!target.equals("t")) ap.append(i/65536); ap.append(blobs[i]); ap.endRow(); }
      }
      tA=System.nanoTime();
      String stats = "";
      if (!target.equals("t")) {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT _key FROM st GROUP BY _key HAVING count(*) > 1)")) { rs.next(); stats += " dups=" + rs.getLong(1); }
        long tD=System.nanoTime();
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM st JOIN t USING (_key)")) { rs.next(); stats += " stored=" + rs.getLong(1); }
        long tJ=System.nanoTime();
        stats += String.format(" [dupcheck %d ms, join %d ms]", (tD-tA)/1000000, (tJ-tD)/1000000);
        s.execute("INSERT INTO t SELECT _key, b FROM st" + (shape.endsWith("Ordered") ? " ORDER BY _key" : ""));
        s.execute("DROP TABLE st");
      }
      tI=System.nanoTime();
      s.execute("COMMIT");
      tC=System.nanoTime();
      s.execute("CHECKPOINT");
      long tK=System.nanoTime();
      System.out.printf("%-13s total %5d ms: append %4d, insert-select %4d, commit %4d, checkpoint %4d%s%n", shape, (tK-t0)/1000000, (tA-t0)/1000000, (tI-tA)/1000000, (tC-tI)/1000000, (tK-tC)/1000000, stats);
    }
  }
}
