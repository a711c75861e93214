package io.quackjvm.bench.probes.raw;

import java.sql.*; import org.duckdb.*; import java.nio.file.*;
public class RawArtSlices { 
  static long rss() throws Exception { for (String l : Files.readAllLines(Path.of("/proc/self/status"))) if (l.startsWith("VmRSS:")) return Long.parseLong(l.replaceAll("[^0-9]",""))/1024; return -1; }
  public static void main(String[] a) throws Exception {
  int per = Integer.parseInt(a[0]); int txns = Integer.parseInt(a[1]);
  new java.io.File("/tmp/bx/art.db").delete(); new java.io.File("/tmp/bx/art.db.wal").delete();
  java.util.Properties pr = new java.util.Properties(); pr.setProperty("memory_limit","64MB"); pr.setProperty("threads","1");
  Connection c = DriverManager.getConnection("jdbc:duckdb:/tmp/bx/art.db", pr);
  Statement s = c.createStatement();
  s.execute("CREATE TABLE t(_key INTEGER PRIMARY KEY, b BLOB)");
  byte[] blob = new byte[8];
  long t0=System.nanoTime(); int id=0;
  for (int x=0;x<txns;x++) {
    s.execute("BEGIN TRANSACTION");
    try (DuckDBAppender ap = ((DuckDBConnection)c).createAppender(DuckDBConnection.DEFAULT_SCHEMA, "t")) {
      for (int i=0;i<per;i++){ ap.beginRow(); ap.append(id++); ap.append(blob); ap.endRow(); }
    }
    try { s.execute("COMMIT"); } catch (Exception e) { System.out.println("commit failed at txn " + x + ": " + e.getMessage().split("\n")[0]); return; }
    s.execute("CHECKPOINT");
    long used=0; try (ResultSet rs = s.executeQuery("select sum(memory_usage_bytes) from duckdb_memory()")) { rs.next(); used=rs.getLong(1)>>20; }
    System.out.printf("txn %d committed, total %d keys, %d ms, rss %d MB, duckdb %d MB%n", x, id, (System.nanoTime()-t0)/1000000, rss(), used);
  }
}}
