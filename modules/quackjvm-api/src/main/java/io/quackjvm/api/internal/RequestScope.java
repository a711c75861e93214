package io.quackjvm.api.internal;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * One CQEngine request of one thread against one collection.
 *
 * <p>Reads need no scope: each borrows its own pooled connection, so readers never wait for writers. The first
 * write of a request takes the collection's write lock, borrows a connection and opens a DuckDB transaction
 * that every later write (and read) of the request shares; when the outermost request ends the transaction
 * commits, or rolls back if any write failed. Not thread-safe: a scope belongs to its thread.
 */
final class RequestScope {

    private final List<AutoCloseable> cursors = new ArrayList<>();
    private final CollectionTable<?, ?> table;
    private PooledConnection write;
    private Lock lock;
    private boolean failed;

    RequestScope(CollectionTable<?, ?> table) {
        this.table = table;
    }

    /** The connection of this request's transaction, started on first use. */
    PooledConnection writeConnection() {
        if (write == null) {
            Lock l = table.database().writePolicy().lockFor(table.name());
            l.lock();
            PooledConnection c = null;
            try {
                c = table.database().borrow();
                c.connection().setAutoCommit(false);
                // Starts the transaction now: DuckDB's Appender only joins a transaction a statement has begun.
                try (Statement s = c.connection().createStatement()) {
                    s.execute("SELECT 1");
                }
            } catch (SQLException | RuntimeException e) {
                if (c != null) {
                    resetAndRelease(c);
                }
                l.unlock();
                throw e instanceof SQLException ? QuackException.wrap("Starting a write transaction", null, (SQLException) e)
                        : (RuntimeException) e;
            }
            lock = l;
            write = c;
        }
        return write;
    }

    /** The write connection if this request has started writing, else {@code null}. */
    PooledConnection activeWrite() {
        return write;
    }

    /** Marks the request as failed: its transaction will roll back whole. */
    void fail() {
        failed = true;
    }

    /** Closes {@code cursor} when the request ends, if its reader has not closed it by then. */
    void register(AutoCloseable cursor) {
        cursors.add(cursor);
    }

    /**
     * Ends the request: closes the cursors it opened (CQEngine does not close every result set it opens
     * internally), then commits, or rolls back after a failure.
     */
    void finish() {
        for (AutoCloseable cursor : cursors) {
            try {
                cursor.close();
            } catch (Exception ignored) {
                // a cursor that fails to close has released what it could
            }
        }
        cursors.clear();
        if (write == null) {
            return;
        }
        PooledConnection c = write;
        Lock l = lock;
        write = null;
        lock = null;
        try {
            Connection connection = c.connection();
            if (failed) {
                connection.rollback();
            } else {
                try {
                    connection.commit();
                } catch (SQLException e) {
                    try {
                        connection.rollback();
                    } catch (SQLException ignored) {
                        // the commit failure is what the caller needs to see
                    }
                    throw QuackException.wrap("Committing a write to collection '" + table.name() + "'", null, e);
                }
            }
        } catch (SQLException e) {
            throw QuackException.wrap("Rolling back a failed write to collection '" + table.name() + "'", null, e);
        } finally {
            failed = false;
            resetAndRelease(c);
            l.unlock();
        }
    }

    private static void resetAndRelease(PooledConnection c) {
        try {
            if (!c.connection().getAutoCommit()) {
                try {
                    c.connection().rollback();
                } catch (SQLException ignored) {
                    // nothing open
                }
                c.connection().setAutoCommit(true);
            }
        } catch (SQLException ignored) {
            // a broken connection is closed by the pool
        } finally {
            c.close();
        }
    }
}
