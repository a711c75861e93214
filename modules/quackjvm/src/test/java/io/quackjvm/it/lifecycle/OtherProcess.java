package io.quackjvm.it.lifecycle;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Another JVM that opens a database file with plain DuckDB JDBC and counts a table's rows. */
final class OtherProcess {

    private OtherProcess() {
    }

    /**
     * Runs {@code SELECT count(*) FROM table} on {@code file} in a new JVM (read-only when asked) and returns the
     * count; fails the test when that process fails.
     */
    static long countRows(Path dir, Path file, String table, boolean readOnly) throws Exception {
        Path source = dir.resolve("CountRows.java");
        Files.writeString(source, String.join("\n",
                "import java.sql.*;",
                "import java.util.Properties;",
                "public class CountRows {",
                "  public static void main(String[] a) throws Exception {",
                "    Properties p = new Properties();",
                "    if (a[2].equals(\"true\")) p.setProperty(\"access_mode\", \"READ_ONLY\");",
                "    try (Connection c = DriverManager.getConnection(\"jdbc:duckdb:\" + a[0], p);",
                "         Statement s = c.createStatement();",
                "         ResultSet rs = s.executeQuery(\"SELECT count(*) FROM \" + a[1])) {",
                "      rs.next();",
                "      System.out.println(\"rows \" + rs.getLong(1));",
                "    }",
                "  }",
                "}"));
        String duckdbJar = Path.of(org.duckdb.DuckDBConnection.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI()).toString();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", duckdbJar, source.toString(), file.toString(), table,
                Boolean.toString(readOnly)).redirectErrorStream(true).start();
        String output;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            output = String.join("\n", out.lines().toList());
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the other process did not finish");
        assertEquals(0, process.exitValue(), output);
        String last = output.substring(output.lastIndexOf("rows ") + 5).trim();
        return Long.parseLong(last);
    }
}
