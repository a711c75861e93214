package io.quackjvm.concurrency;

import org.duckdb.DuckDBResultSetMetaData;
import org.duckdb.StatementReturnType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One pooled connection with its cache of prepared statements. DuckDB spends about 200 us preparing a
 * statement, so a statement is kept with its connection between requests. A statement lent out (for example
 * one whose result set is still being read) is not in the cache, so no later request can cut it short.
 * Requests use it through a {@link Loan} each. Not thread-safe: it belongs to one request at a time.
 */
final class Lease {

    /** Bounded, because a query with an IN list of a new length is a new statement. */
    private static final int CACHE_SIZE = 64;

    private final DuplicatingPool pool;
    private final Connection connection;
    private final Map<String, PreparedStatement> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() > CACHE_SIZE) {
                closeQuietly(eldest.getValue());
                return true;
            }
            return false;
        }
    };
    private final Map<PreparedStatement, String> lent = new IdentityHashMap<>();
    /**
     * Whether the current borrower may have left a transaction open: it was handed the connection itself, or
     * prepared a statement that may begin one. Reset when the connection is handed back.
     */
    private boolean mayHoldTransaction;
    /**
     * Whether a transaction begun through {@link #begin()} is open: known without asking DuckDB, because it
     * changes only when one of {@link #begin()}, {@link #commit()} or {@link #rollback()} succeeds (a failed
     * commit or rollback leaves the state unknown, and {@link #mayHoldTransaction} set).
     */
    private boolean inTransaction;
    /** The statements of {@link #reset()}, kept apart from the cache so that they are never evicted. */
    private final Map<String, PreparedStatement> control = new HashMap<>(4);

    Lease(DuplicatingPool pool, Connection connection) {
        this.pool = pool;
        this.connection = connection;
    }

    Connection connection() {
        return connection;
    }

    PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement statement = cache.remove(sql);
        if (statement == null || statement.isClosed()) {
            statement = connection.prepareStatement(sql);
        }
        lent.put(statement, sql);
        if (!mayHoldTransaction) {
            mayHoldTransaction = mayChangeTransaction(statement);
        }
        return statement;
    }

    /**
     * Whether running {@code statement} could begin (or end) a transaction, by DuckDB's kind of the statement: a
     * query or a statement that changes rows never does; {@code BEGIN} is among those that return nothing.
     */
    private static boolean mayChangeTransaction(PreparedStatement statement) throws SQLException {
        return !(statement.getMetaData() instanceof DuckDBResultSetMetaData meta)
                || meta.getReturnType() == StatementReturnType.NOTHING;
    }

    void begin() throws SQLException {
        try {
            run("BEGIN TRANSACTION");
        } catch (SQLException e) {
            mayHoldTransaction = true; // a transaction of the borrower's own may be open
            throw e;
        }
        inTransaction = true;
    }

    void commit() throws SQLException {
        end("COMMIT");
    }

    void rollback() throws SQLException {
        end("ROLLBACK");
    }

    private void end(String sql) throws SQLException {
        try {
            run(sql);
        } catch (SQLException e) {
            mayHoldTransaction = true;
            throw e;
        }
        inTransaction = false;
    }

    /** The borrower was handed the connection itself: it may have run anything on it. */
    Connection exposeConnection() {
        mayHoldTransaction = true;
        return connection;
    }

    void recycle(PreparedStatement statement) {
        String sql = lent.remove(statement);
        try {
            if (sql == null || statement.isClosed()) {
                return;
            }
            statement.clearParameters();
        } catch (SQLException e) {
            closeQuietly(statement);
            return;
        }
        PreparedStatement previous = cache.put(sql, statement);
        if (previous != null && previous != statement) {
            closeQuietly(previous);
        }
    }

    /** Closes the statements still lent out and hands the connection back to the pool. */
    void giveBack() {
        for (PreparedStatement statement : lent.keySet()) {
            closeQuietly(statement);
        }
        lent.clear();
        pool.giveBack(this);
    }

    /**
     * Ends any transaction the last borrower left open, so that the next one is not lent inside it.
     * DuckDB's JDBC driver has no flag for a transaction opened by SQL ({@code getAutoCommit()} stays true after
     * {@code BEGIN}), so unless the borrower can only have run queries and row changes, the connection is asked: a
     * {@code BEGIN} of its own succeeds only outside a transaction (and is rolled back at once); when it fails,
     * the borrower's transaction is rolled back.
     *
     * @return {@code false} when the connection is closed, out of auto-commit, or could not be rolled back: it
     * must not be lent again
     */
    boolean reset() {
        try {
            if (connection.isClosed() || !connection.getAutoCommit()) {
                return false;
            }
            if (!mayHoldTransaction) {
                // Only queries, row changes and the transaction calls ran: the state is known, and asking DuckDB
                // would cost two statements.
                if (inTransaction) {
                    inTransaction = false;
                    run("ROLLBACK");
                }
                return true;
            }
            mayHoldTransaction = false;
            inTransaction = false;
            try {
                run("BEGIN TRANSACTION");
            } catch (SQLException insideATransaction) {
                connection.rollback();
                return true;
            }
            run("ROLLBACK");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** Runs a transaction statement prepared once per connection (DuckDB's driver closes one that failed). */
    private void run(String sql) throws SQLException {
        PreparedStatement statement = control.get(sql);
        if (statement == null || statement.isClosed()) {
            statement = connection.prepareStatement(sql);
            control.put(sql, statement);
        }
        statement.execute();
    }

    void closeNow() {
        for (PreparedStatement statement : cache.values()) {
            closeQuietly(statement);
        }
        cache.clear();
        for (PreparedStatement statement : control.values()) {
            closeQuietly(statement);
        }
        control.clear();
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing
        }
    }

    static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException ignored) {
            // closing
        }
    }
}
