package io.quackjvm.bench.probes.raw;

import java.sql.*; import org.duckdb.*; import java.util.*;
public class RawInterleave {
  public static void main(String[] a) throws Exception {
    int N = Integer.parseInt(a[0]); int chunk = 131072;
    byte[][] blobs = new byte[N][]; Random r = new Random(2); for (int i=0;i<N;i++){ blobs[i]=new byte[90]; r.nextBytes(blobs[i]); }
    String[] makers = {"Ford","Honda","Toyota","BMW","Tesla","Fiat","Kia"};
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    Map<String,List<Long>> tot = new LinkedHashMap<>(), cpu = new LinkedHashMap<>();
    for (int round=0; round<Integer.parseInt(a[2]); round++) for (String shape : a[1].split(",")) {
      new java.io.File("/tmp/bulk6raw/i.db").delete(); new java.io.File("/tmp/bulk6raw/i.db.wal").delete();
      long t0, c0;
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:/tmp/bulk6raw/i.db"); Statement s = c.createStatement()) {
        DuckDBConnection d = (DuckDBConnection) c;
        s.execute("CREATE TABLE t(_key INTEGER PRIMARY KEY, b BLOB)");
        for (int k=1;k<=3;k++) s.execute("CREATE TABLE i" + k + "(_key INTEGER, value VARCHAR)");
        c0 = os.getProcessCpuTime(); t0=System.nanoTime();
        s.execute("BEGIN TRANSACTION");
        if (shape.equals("interleaved")) {
          DuckDBAppender[] ap = new DuckDBAppender[4]; ap[0]=d.createAppender(DuckDBConnection.DEFAULT_SCHEMA,"t"); for (int k=1;k<=3;k++) ap[k]=d.createAppender(DuckDBConnection.DEFAULT_SCHEMA,"i"+k);
          for (int from=0; from<N; from+=chunk) {
            int to=Math.min(N,from+chunk);
            for (int i=from;i<to;i++){ ap[0].beginRow(); ap[0].append(i); ap[0].append(blobs[i]); ap[0].endRow(); }
            ap[0].flush();
            for (int k=1;k<=3;k++){ for (int i=from;i<to;i++){ ap[k].beginRow(); ap[k].append(i); ap[k].append(makers[(i*k)%7] + (i%1000)); ap[k].endRow(); } ap[k].flush(); }
          }
          for (DuckDBAppender x : ap) x.close();
        } else {
          try (DuckDBAppender ap = d.createAppender(DuckDBConnection.DEFAULT_SCHEMA,"t")) { for (int i=0;i<N;i++){ ap.beginRow(); ap.append(i); ap.append(blobs[i]); ap.endRow(); } }
          for (int k=1;k<=3;k++) try (DuckDBAppender ap = d.createAppender(DuckDBConnection.DEFAULT_SCHEMA,"i"+k)) { for (int i=0;i<N;i++){ ap.beginRow(); ap.append(i); ap.append(makers[(i*k)%7] + (i%1000)); ap.endRow(); } }
        }
        s.execute("COMMIT");
      }
      long ms=(System.nanoTime()-t0)/1000000, cp=(os.getProcessCpuTime()-c0)/1000000;
      tot.computeIfAbsent(shape, k->new ArrayList<>()).add(ms); cpu.computeIfAbsent(shape, k->new ArrayList<>()).add(cp);
      System.out.printf("%-12s total %d ms, cpu %d ms (load %s)%n", shape, ms, cp, new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg"))).split(" ")[0]);
    }
    System.out.println("wall " + tot); System.out.println("cpu " + cpu);
  }
}
