package io.quackjvm.bench.probes.raw;

import java.sql.*; import org.duckdb.*;
public class RawAppendCommit { public static void main(String[] a) throws Exception {
  for (String ddl : new String[]{"_key INTEGER PRIMARY KEY, b BLOB", "_key INTEGER, b BLOB", "_key INTEGER PRIMARY KEY, b BLOB", "_key INTEGER, b BLOB"}) {
  new java.io.File("/tmp/bx/chk.db").delete(); new java.io.File("/tmp/bx/chk.db.wal").delete();
  Connection c = DriverManager.getConnection("jdbc:duckdb:/tmp/bx/chk.db");
  Statement s = c.createStatement();
  s.execute("CREATE TABLE t(" + ddl + ")");
  s.execute("BEGIN TRANSACTION");
  byte[] blob = new byte[80];
  long t0=System.nanoTime();
  try (DuckDBAppender ap = ((DuckDBConnection)c).createAppender(DuckDBConnection.DEFAULT_SCHEMA, "t")) {
      for (int i=0;i<1000000;i++){ blob[i%80]=(byte)i; ap.beginRow(); ap.append(i); ap.append(blob); ap.endRow(); }
  }
  long t1=System.nanoTime(); s.execute("COMMIT"); long t2=System.nanoTime();
  s.execute("CHECKPOINT"); long t3=System.nanoTime();
  System.out.printf("%s: append %d ms commit %d ms checkpoint %d ms, wal %d%n", ddl, (t1-t0)/1000000,(t2-t1)/1000000,(t3-t2)/1000000, new java.io.File("/tmp/bx/chk.db.wal").length());
  c.close();
  }
}}
