package io.quackjvm.concurrency;

import io.quackjvm.api.spi.PooledConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One borrow of a pooled {@link Lease}: a handle of its own per borrow, so that closing it a second time (or
 * later, once the connection has been lent to another request) gives nothing back: two borrowers sharing one
 * DuckDB connection deadlock inside its driver. After {@link #close()} it refuses to prepare statements.
 */
final class Loan implements PooledConnection {

    private final Lease lease;
    private boolean returned;

    Loan(Lease lease) {
        this.lease = lease;
    }

    @Override
    public Connection connection() {
        synchronized (this) {
            if (!returned) {
                return lease.exposeConnection();
            }
        }
        return lease.connection();
    }

    @Override
    public PreparedStatement prepare(String sql) throws SQLException {
        return open().prepare(sql);
    }

    @Override
    public void begin() throws SQLException {
        open().begin();
    }

    @Override
    public void commit() throws SQLException {
        open().commit();
    }

    @Override
    public void rollback() throws SQLException {
        open().rollback();
    }

    @Override
    public void recycle(PreparedStatement statement) {
        synchronized (this) {
            if (!returned) {
                lease.recycle(statement);
                return;
            }
        }
        Lease.closeQuietly(statement);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (returned) {
                return;
            }
            returned = true;
        }
        lease.giveBack();
    }

    private synchronized Lease open() {
        if (returned) {
            throw new IllegalStateException("This pooled connection was closed (given back to its pool); borrow "
                    + "another one");
        }
        return lease;
    }
}
