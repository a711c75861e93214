package io.quackjvm.api.internal.database;

import io.quackjvm.api.QuackException;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Refuses a DuckDB JDBC driver older than the one whose guarantees the library relies on. A build that pins an
 * older {@code duckdb_jdbc} (or lets a dependency's older one win Maven's nearest-wins rule) would open files
 * normally and lose a write that replaces a whole row group of stored keys at the next crash, so the library
 * checks the driver it runs with once per JVM, before the first database opens.
 */
final class DriverVersion {

    /** The oldest driver release the library accepts, as {@code major.minor.patch}. */
    static final int[] OLDEST = {1, 5, 6};

    private static volatile boolean checked;

    private DriverVersion() {
    }

    /** Checks the driver on the class or module path once; throws {@link QuackException} if it is too old. */
    static void requireSupported() {
        if (checked) {
            return;
        }
        String version;
        // the driver reports "1.0" as its JDBC version; the engine's own version is what the guarantees rest on
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT library_version FROM pragma_version()")) {
            rs.next();
            version = rs.getString(1);
        } catch (SQLException e) {
            throw new QuackException("Cannot start DuckDB to check its driver version: " + e.getMessage(), e);
        }
        check(version);
        checked = true;
    }

    /** Throws {@link QuackException} if {@code version} (such as {@code v1.5.6}) is older than {@link #OLDEST}. */
    static void check(String version) {
        int[] parts = new int[OLDEST.length];
        String text = String.valueOf(version);
        String[] given = (text.startsWith("v") ? text.substring(1) : text).split("[.-]");
        for (int i = 0; i < parts.length; i++) {
            try {
                parts[i] = i < given.length ? Integer.parseInt(given[i]) : 0;
            } catch (NumberFormatException e) {
                throw tooOld(version);
            }
        }
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] != OLDEST[i]) {
                if (parts[i] < OLDEST[i]) {
                    throw tooOld(version);
                }
                return;
            }
        }
    }

    private static QuackException tooOld(String version) {
        return new QuackException("The DuckDB JDBC driver on the class or module path runs DuckDB " + version
                + "; quackjvm needs org.duckdb:duckdb_jdbc " + OLDEST[0] + "." + OLDEST[1] + "." + OLDEST[2]
                + ".0 or newer (older drivers can lose an acknowledged write that replaces 16,384 or more stored keys "
                + "when the process dies before a checkpoint). Remove the older version from your build "
                + "(mvn dependency:tree shows which dependency brings it).");
    }
}
