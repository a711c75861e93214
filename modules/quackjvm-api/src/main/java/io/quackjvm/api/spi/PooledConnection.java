package io.quackjvm.api.spi;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A connection lent to one request. Not thread-safe: it belongs to the request that borrowed it until
 * {@link #close()} hands it back.
 */
public interface PooledConnection extends AutoCloseable {

    /** The DuckDB connection (a {@code duplicate()} of the database's root connection). */
    Connection connection();

    /**
     * A prepared statement for {@code sql}, reused from earlier requests where possible. The caller has it
     * to itself until it passes it to {@link #recycle(PreparedStatement)}; a statement that is never recycled
     * is closed with the connection.
     */
    PreparedStatement prepare(String sql) throws SQLException;

    /** Gives a statement from {@link #prepare(String)} back for reuse; its result sets must be closed. */
    void recycle(PreparedStatement statement);

    /**
     * Starts a transaction ({@code BEGIN TRANSACTION}). The engine begins and ends its transactions only through
     * {@link #begin()}, {@link #commit()} and {@link #rollback()}, so a pool that implements them can know, without
     * asking DuckDB, whether a connection handed back is inside a transaction. The defaults run the statements
     * through {@link #prepare(String)}.
     *
     * @throws SQLException as DuckDB reports it (for example, a transaction is already open)
     */
    default void begin() throws SQLException {
        execute(this, "BEGIN TRANSACTION");
    }

    /**
     * Commits the open transaction ({@code COMMIT}).
     *
     * @throws SQLException when DuckDB refuses the commit (a conflict, or a transaction it had already aborted)
     */
    default void commit() throws SQLException {
        execute(this, "COMMIT");
    }

    /**
     * Rolls the open transaction back ({@code ROLLBACK}).
     *
     * @throws SQLException when no transaction is open, or the connection cannot roll back
     */
    default void rollback() throws SQLException {
        execute(this, "ROLLBACK");
    }

    private static void execute(PooledConnection connection, String sql) throws SQLException {
        PreparedStatement statement = connection.prepare(sql);
        try {
            statement.execute();
        } finally {
            connection.recycle(statement);
        }
    }

    /**
     * Returns the connection to its pool, or closes it if the pool is full or closed. A second call does
     * nothing, even after the pool has lent the connection to another request. A connection returned inside
     * an open transaction (opened through JDBC or by SQL {@code BEGIN}) is rolled back, or closed when that
     * fails: the pool never lends a connection inside a transaction.
     */
    @Override
    void close();
}
