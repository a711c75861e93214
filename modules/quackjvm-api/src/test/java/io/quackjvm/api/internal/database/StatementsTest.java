package io.quackjvm.api.internal.database;

import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Which time bounds a statement, and how its SQL is reported. */
class StatementsTest {

    @Test
    void aCallsOwnTimeoutWinsOverTheDatabasesAndNoneMeansTheDatabases() {
        Statements withDefault = new Statements(new StatementSettings(Duration.ofSeconds(3), null, 0,
                Duration.ofSeconds(30)), new RunningStatements(() -> "test"));
        QueryOptions own = new QueryOptions();
        own.put(DuckDBOptions.class, DuckDBOptions.timeout(Duration.ofMillis(250)));
        assertEquals(Duration.ofMillis(250), withDefault.timeoutOf(own));
        assertEquals(Duration.ofSeconds(3), withDefault.timeoutOf(new QueryOptions()));
        assertEquals(Duration.ofSeconds(3), withDefault.timeoutOf(null));
        Statements none = new Statements(StatementSettings.NONE, new RunningStatements(() -> "test"));
        assertNull(none.timeoutOf(new QueryOptions()));
        assertEquals(Duration.ofMillis(250), none.timeoutOf(own));
    }

    @Test
    void reportedSqlHasItsValuesElidedAndKeepsItsNames() {
        assertEquals("SELECT * FROM \"car 2\" WHERE _idx_3 = ? AND name = ? AND x IN (?, ?)",
                SqlText.elide("SELECT * FROM \"car 2\" WHERE _idx_3 = 42 AND name = 'O''Brien' AND x IN (1.5, 2e3)"));
        assertEquals("SELECT ? FROM quackjvm_mem_1.car", SqlText.elide("SELECT 'secret' FROM quackjvm_mem_1.car"));
        String longSql = "SELECT " + "a, ".repeat(1000) + "b";
        String elided = SqlText.elide(longSql);
        assertEquals(true, elided.length() < SqlText.MAX + 60);
        assertEquals(true, elided.endsWith("more characters)"), elided);
    }
}
