package io.quackjvm.api.internal.database;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A setting changed for a moment, on a real DuckDB: it comes back as it was, however often it is changed. */
class HeldSettingTest {

    private static String current(Statement s, String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT current_setting('" + name + "')")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    /** A size as DuckDB reports it ({@code "286.1 MiB"}), in MiB. */
    private static double mib(String reported) {
        assertTrue(reported.endsWith(" MiB"), reported);
        return Double.parseDouble(reported.substring(0, reported.length() - 4));
    }

    @Test
    void aSizeDuckDbReportsRoundedComesBackTheSameEveryTime() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            // 300MB is reported rounded to 0.1 MiB: what comes back is that value, and the same after every change
            s.execute("SET memory_limit = '300MB'");
            String opened = current(s, "memory_limit");
            HeldSetting limit = new HeldSetting("memory_limit");
            String back = null;
            for (int i = 0; i < 5; i++) {
                assertTrue(limit.change(s, "16MB"));
                assertNotEquals(opened, current(s, "memory_limit"), "the limit was not lowered");
                limit.restore(s);
                String now = current(s, "memory_limit");
                if (back == null) {
                    back = now;
                    assertTrue(Math.abs(mib(opened) - mib(back)) <= 0.1 + 1e-9, opened + " came back as " + back);
                }
                assertEquals(back, now, "the limit drifted after " + (i + 1) + " change(s)");
            }
            assertEquals(opened, limit.original());
        }
    }

    @Test
    void theCheckpointThresholdComesBackAfterBeingRaised() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            String opened = current(s, "checkpoint_threshold");
            HeldSetting threshold = new HeldSetting("checkpoint_threshold");
            assertTrue(threshold.change(s, "1TB"));
            assertNotEquals(opened, current(s, "checkpoint_threshold"), "the threshold was not raised");
            threshold.restore(s);
            assertEquals(opened, current(s, "checkpoint_threshold"));
        }
    }
}
