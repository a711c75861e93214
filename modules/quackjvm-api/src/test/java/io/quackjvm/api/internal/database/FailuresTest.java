package io.quackjvm.api.internal.database;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.WriteConflictException;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every row of {@link Failures}' table, provoked on the shipped DuckDB driver: a driver whose words for one of
 * these failures change fails here. The lock held by another process is provoked through the whole stack, where
 * it must become a {@code DatabaseLockedException} ({@code io.quackjvm.it.FileTest}).
 */
class FailuresTest {

    private DuckDBConnection root;
    private Connection first;
    private Connection second;

    @BeforeEach
    void open() throws SQLException {
        root = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
        run(root, "CREATE TABLE t(k INTEGER PRIMARY KEY, v VARCHAR)");
        run(root, "INSERT INTO t VALUES (1, 'a')");
        first = root.duplicate();
        second = root.duplicate();
    }

    @AfterEach
    void close() throws SQLException {
        first.close();
        second.close();
        root.close();
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static SQLException failure(Connection c, String sql) {
        return assertThrows(SQLException.class, () -> run(c, sql));
    }

    @Test
    void aDuplicateKeyOfAnInsertIsADuplicateKeyNamingTheKey() {
        SQLException e = failure(root, "INSERT INTO t VALUES (1, 'b')");
        assertEquals(Failures.Kind.DUPLICATE_KEY, Failures.kind(e), e.getMessage());
        assertEquals("1", Failures.duplicateKey(e), e.getMessage());
        assertInstanceOf(WriteConflictException.class, Failures.wrap("Adding", null, e));
    }

    @Test
    void twoTransactionsUpdatingOneRowAreAWriteConflict() throws SQLException {
        run(first, "BEGIN TRANSACTION");
        run(second, "BEGIN TRANSACTION");
        run(first, "UPDATE t SET v = 'x' WHERE k = 1");
        SQLException e = failure(second, "UPDATE t SET v = 'y' WHERE k = 1");
        assertEquals(Failures.Kind.WRITE_CONFLICT, Failures.kind(e), e.getMessage());
        assertInstanceOf(WriteConflictException.class, Failures.wrap("Updating", null, e));

        SQLException aborted = failure(second, "SELECT 1");
        assertEquals(Failures.Kind.TRANSACTION_ABORTED, Failures.kind(aborted), aborted.getMessage());
        assertInstanceOf(WriteConflictException.class, Failures.wrap("Updating", null, aborted));
        run(second, "ROLLBACK");
        run(first, "COMMIT");
    }

    @Test
    void aKeyAnotherTransactionCommittedFirstFailsTheCommitAsADuplicateKey() throws SQLException {
        run(first, "BEGIN TRANSACTION");
        run(second, "BEGIN TRANSACTION");
        run(first, "DELETE FROM t WHERE k = 1");
        run(first, "INSERT INTO t VALUES (1, 'z')");
        run(second, "INSERT INTO t VALUES (4, 'b')");
        run(first, "INSERT INTO t VALUES (4, 'a')");
        run(first, "COMMIT");
        SQLException e = failure(second, "COMMIT");
        assertEquals(Failures.Kind.DUPLICATE_KEY, Failures.kind(e), e.getMessage());
        assertEquals("4", Failures.duplicateKey(e), e.getMessage());
    }

    /** Appends a row per key through DuckDB's Appender on {@code c}, flushing after each; returns its failure. */
    private static SQLException append(Connection c, int... keys) {
        return assertThrows(SQLException.class, () -> {
            try (DuckDBAppender appender = ((DuckDBConnection) c).createAppender("t")) {
                for (int key : keys) {
                    appender.beginRow();
                    appender.append(key);
                    appender.append("q");
                    appender.endRow();
                    appender.flush();
                }
            }
        });
    }

    @Test
    void aKeyTheAppenderAddsTwiceIsADuplicateKey() {
        SQLException e = append(first, 1);
        assertEquals(Failures.Kind.DUPLICATE_KEY, Failures.kind(e), e.getMessage());
        assertEquals("1", Failures.duplicateKey(e), e.getMessage());
    }

    @Test
    void aKeyTheAppenderAddsTwiceInOneTransactionIsADuplicateKey() throws SQLException {
        first.setAutoCommit(false);
        SQLException e = append(first, 7, 7);
        assertEquals(Failures.Kind.DUPLICATE_KEY, Failures.kind(e), e.getMessage());
        assertEquals("7", Failures.duplicateKey(e), e.getMessage());
        first.rollback();
    }

    @Test
    void aCommitOrRollbackWithoutATransactionIsNoTransaction() {
        SQLException rollback = failure(root, "ROLLBACK");
        assertTrue(Failures.isNoTransaction(rollback), rollback.getMessage());
        SQLException commit = failure(root, "COMMIT");
        assertTrue(Failures.isNoTransaction(commit), commit.getMessage());
    }

    @Test
    void aCancelledStatementIsInterrupted() throws Exception {
        Statement s = first.createStatement();
        CompletableFuture<SQLException> failed = CompletableFuture.supplyAsync(() -> {
            try {
                s.execute("SELECT count(*) FROM range(1000000000000) a");
                return null;
            } catch (SQLException e) {
                return e;
            }
        });
        while (!failed.isDone()) {
            try {
                s.cancel();
            } catch (SQLException closedByItsFailure) {
                // the driver closes a statement that failed
            }
            Thread.onSpinWait();
        }
        SQLException e = failed.get(60, TimeUnit.SECONDS);
        assertEquals(Failures.Kind.INTERRUPTED, Failures.kind(e), String.valueOf(e));
        s.close();
    }

    @Test
    void runningOutOfMemoryIsExplained() throws SQLException {
        run(first, "SET memory_limit = '10MB'");
        SQLException e = failure(first, "SELECT list(range) FROM range(100000000)");
        assertEquals(Failures.Kind.OUT_OF_MEMORY, Failures.kind(e), e.getMessage());
        assertTrue(Failures.wrap("Reading", null, e).getMessage().contains("memoryLimit"));
    }

    @Test
    void anotherFailureIsOtherEvenWhenItQuotesTheWordsOfOne() {
        SQLException e = failure(root, "SELECT \"Conflict on update! Out of Memory Error: no transaction is active\" "
                + "FROM t");
        assertEquals(Failures.Kind.OTHER, Failures.kind(e), e.getMessage());
        assertNull(Failures.duplicateKey(e));
        QuackException wrapped = Failures.wrap("Running the query", "SELECT ...", e);
        assertEquals(QuackException.class, wrapped.getClass());
        assertFalse(wrapped.getMessage().contains("memoryLimit"), wrapped.getMessage());
    }
}
