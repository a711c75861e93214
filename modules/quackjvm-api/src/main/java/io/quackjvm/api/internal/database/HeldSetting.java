package io.quackjvm.api.internal.database;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A DuckDB setting changed for a moment and then put back. The value put back is the one read the first time,
 * as DuckDB reports it: sizes are reported to 0.1 MiB ({@code 256MB} reads as {@code 244.1 MiB}), so the value
 * comes back within that step of the one the database was opened with, and the same after every change; read
 * again before each change, it could step down each time. Only settings that users cannot change after opening
 * are held this way. Thread-safe.
 */
final class HeldSetting {

    private final String name;
    private String original;

    HeldSetting(String name) {
        this.name = name;
    }

    /** Sets it to {@code value}; {@code false}, changing nothing, when DuckDB does not report its value. */
    synchronized boolean change(Statement s, String value) throws SQLException {
        if (original == null) {
            try (ResultSet rs = s.executeQuery("SELECT current_setting('" + name + "')")) {
                if (!rs.next() || rs.getString(1) == null) {
                    return false;
                }
                original = rs.getString(1);
            }
        }
        set(s, value);
        return true;
    }

    /** Puts back the value it had when first read; only after a {@link #change} that returned {@code true}. */
    synchronized void restore(Statement s) throws SQLException {
        set(s, original);
    }

    /** The value {@link #restore} puts back, for messages; {@code null} before the first change. */
    synchronized String original() {
        return original;
    }

    private void set(Statement s, String value) throws SQLException {
        s.execute("SET " + name + " = '" + value.replace("'", "''") + "'");
    }
}
