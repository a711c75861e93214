package io.quackjvm.bench.probes.raw;

import java.sql.*; import org.duckdb.*; import java.util.*;
public class RawSwap {
  public static void main(String[] a) throws Exception {
    int N = Integer.parseInt(a[0]); int chunk = 131072;
    byte[][] blobs = new byte[N][]; Random r = new Random(2); for (int i=0;i<N;i++){ blobs[i]=new byte[90]; r.nextBytes(blobs[i]); }
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    Map<String,List<Long>> tot = new LinkedHashMap<>(), cpu = new LinkedHashMap<>();
    for (int round=0; round<Integer.parseInt(a[2]); round++) for (String shape : a[1].split(",")) {
      new java.io.File("/tmp/bulk6raw/s.db").delete(); new java.io.File("/tmp/bulk6raw/s.db.wal").delete();
      long t0, tA, tI, tC, tK, c0;
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:/tmp/bulk6raw/s.db"); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t(_key INTEGER PRIMARY KEY, b BLOB)");
        c0 = os.getProcessCpuTime(); t0=System.nanoTime();
        s.execute("BEGIN TRANSACTION");
        String target = "t";
        if (!shape.equals("direct")) { s.execute("CREATE TABLE t_new(_key INTEGER" + (shape.equals("swap-pk-ddl") ? " PRIMARY KEY" : "") + ", b BLOB)"); target = "t_new"; }
        try (DuckDBAppender ap = ((DuckDBConnection)c).createAppender(DuckDBConnection.DEFAULT_SCHEMA, target)) {
          for (int i=0;i<N;i++){ ap.beginRow(); ap.append(i); ap.append(blobs[i]); ap.endRow(); }
        }
        tA=System.nanoTime();
        if (shape.equals("swap-addpk")) { s.execute("ALTER TABLE t_new ADD PRIMARY KEY (_key)"); }
        if (shape.equals("swap-index")) { s.execute("CREATE UNIQUE INDEX t_new_k ON t_new(_key)"); }
        if (!shape.equals("direct")) { s.execute("DROP TABLE t"); s.execute("ALTER TABLE t_new RENAME TO t"); }
        tI=System.nanoTime(); s.execute("COMMIT"); tC=System.nanoTime();
        s.execute("CHECKPOINT");
        try (ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT _key) FROM t")) { rs.next(); if (rs.getLong(1) != N) throw new IllegalStateException(); }
        try { s.execute("INSERT INTO t VALUES (5, NULL)"); System.out.println("  !! duplicate accepted in " + shape); } catch (SQLException e) { /* expected */ }
      }
      tK=System.nanoTime(); long cp = (os.getProcessCpuTime()-c0)/1000000;
      tot.computeIfAbsent(shape, k->new ArrayList<>()).add((tK-t0)/1000000); cpu.computeIfAbsent(shape, k->new ArrayList<>()).add(cp);
      System.out.printf("%-12s append %5d ms, pk/swap %d ms, commit %d ms, total %d ms, cpu %d ms (load %s)%n", shape, (tA-t0)/1000000, (tI-tA)/1000000, (tC-tI)/1000000, (tK-t0)/1000000, cp, new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg"))).split(" ")[0]);
    }
    System.out.println("wall " + tot); System.out.println("cpu " + cpu);
  }
}
