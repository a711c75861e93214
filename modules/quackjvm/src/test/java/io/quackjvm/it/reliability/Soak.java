package io.quackjvm.it.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The suite's size and its results file. {@code -Dreliability=full} runs the soak size and writes what it did to
 * {@code benchmarks/results/reliability/soak-<date>.md}; the default (CI) size writes nothing.
 */
final class Soak {

    static final String COMMAND = "mvn -B -pl modules/quackjvm -am verify -Dtest='Reliability*' "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dreliability=full";

    static final boolean FULL = "full".equalsIgnoreCase(System.getProperty("reliability", "ci"));

    private static Path file;

    private Soak() {
    }

    /** {@code ci} at the CI size, {@code full} at the soak size. */
    static int size(int ci, int full) {
        return FULL ? full : ci;
    }

    static String mode() {
        return FULL ? "full" : "ci";
    }

    /** Appends a section to this run's results file (full mode only), creating it with the run's header. */
    static synchronized void report(String title, List<String> lines) throws IOException, SQLException {
        if (!FULL) {
            return;
        }
        if (file == null) {
            Path dir = repositoryRoot().resolve("benchmarks/results/reliability");
            Files.createDirectories(dir);
            LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
            file = dir.resolve("soak-" + now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm")) + ".md");
            String header = String.join("\n",
                    "# Reliability soak",
                    "",
                    "- date (UTC): " + now.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME).substring(0, 16),
                    "- command: `" + COMMAND + "`",
                    "- JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                    "- DuckDB: " + duckdbVersion(),
                    "- OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", "
                            + Runtime.getRuntime().availableProcessors() + " cores",
                    "- written by `modules/quackjvm/src/test/java/io/quackjvm/it/reliability/` (Reliability*Test)",
                    "", "");
            Files.writeString(file, header);
        }
        StringBuilder b = new StringBuilder("## ").append(title).append("\n\n");
        for (String line : lines) {
            b.append(line).append('\n');
        }
        b.append('\n');
        Files.writeString(file, b.toString(), StandardOpenOption.APPEND);
    }

    private static String duckdbVersion() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT library_version, source_id FROM pragma_version()")) {
            rs.next();
            return rs.getString(1) + " (" + rs.getString(2) + "), JDBC driver " + c.getMetaData().getDriverVersion();
        }
    }

    private static Path repositoryRoot() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("benchmarks")) && Files.isDirectory(d.resolve("modules"))) {
                return d;
            }
        }
        throw new IllegalStateException("Cannot find the repository root (a folder with benchmarks/ and modules/) above " + dir);
    }
}
