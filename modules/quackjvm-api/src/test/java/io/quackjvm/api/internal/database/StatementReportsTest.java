package io.quackjvm.api.internal.database;

import io.quackjvm.api.Operation;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A statement's reports once it ends: the JFR event (through a real recording) and the slow-statement warning,
 * each with the SQL's values elided, on real DuckDB statements.
 */
class StatementReportsTest {

    private static void run(Statements statements, Connection c, String sql, String origin) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(sql);
             Statements.Run run = statements.start(ps, Operation.SQL, "car", sql, null, origin);
             ResultSet rs = ps.executeQuery()) {
            long n = 0;
            while (rs.next()) {
                n++;
            }
            run.rows(n);
            run.succeeded();
        }
    }

    @Test
    void aStatementAtTheRecordingsThresholdIsAJfrEventWithItsSqlElided() throws Exception {
        Statements statements = new Statements(StatementSettings.NONE, new RunningStatements(() -> "test"));
        List<RecordedEvent> events = new CopyOnWriteArrayList<>();
        CountDownLatch seen = new CountDownLatch(1);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             RecordingStream rs = new RecordingStream()) {
            rs.enable("quackjvm.Statement").withThreshold(Duration.ZERO);
            rs.onEvent("quackjvm.Statement", e -> {
                events.add(e);
                seen.countDown();
            });
            rs.startAsync();
            run(statements, c, "SELECT i, 'secret' FROM range(7) t(i)", null);
            assertTrue(seen.await(60, TimeUnit.SECONDS), "no quackjvm.Statement event was recorded");
        }
        RecordedEvent e = events.get(0);
        assertEquals("SELECT i, ? FROM range(?) t(i)", e.getString("sql"));
        assertEquals("car", e.getString("collection"));
        assertEquals("sql", e.getString("operation"));
        assertEquals(7L, e.getLong("rows"));
        assertFalse(e.getDuration().isNegative());
    }

    @Test
    void aStatementOverTheSlowThresholdIsLoggedWithItsQueryAndOneUnderItIsNot() throws Exception {
        Statements logAll = new Statements(new StatementSettings(null, Duration.ZERO, 0, Duration.ofSeconds(1)),
                new RunningStatements(() -> "test"));
        Statements logNone = new Statements(new StatementSettings(null, Duration.ofHours(1), 0,
                Duration.ofSeconds(1)), new RunningStatements(() -> "test"));
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                run(logAll, c, "SELECT 'abc' FROM range(3)", "equal(manufacturer, Ford)");
                run(logNone, c, "SELECT 'never' FROM range(4)", "equal(manufacturer, Honda)");
            } finally {
                System.setErr(err);
            }
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("Slow statement: "), log);
        assertTrue(log.contains("3 rows, sql of 'car': SELECT ? FROM range(?) (query: equal(manufacturer, Ford))"),
                log);
        assertFalse(log.contains("abc"), "a value reached the log: " + log);
        assertFalse(log.contains("Honda"), "a statement under the threshold was logged: " + log);
    }
}
