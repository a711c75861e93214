package io.quackjvm.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Another JVM running a single Java source file with DuckDB's JDBC driver on its class path. */
public final class OtherProcess {

    private OtherProcess() {
    }

    /** Starts {@code java -cp <duckdb_jdbc> source args...}, its error output merged into its output. */
    public static Process start(Path source, String... args) throws Exception {
        String duckdbJar = Path.of(org.duckdb.DuckDBConnection.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI()).toString();
        String launcher = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(launcher, "-cp", duckdbJar, source.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /**
     * Runs {@code SELECT count(*) FROM table} on {@code file} in a new JVM (read-only when asked) and returns the
     * count; fails the test when that process fails.
     */
    public static long countRows(Path dir, Path file, String table, boolean readOnly) throws Exception {
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
        Process process = start(source, file.toString(), table, Boolean.toString(readOnly));
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
