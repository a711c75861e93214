package io.quackjvm.api.spi;

import java.sql.SQLException;

/**
 * Lends connections of one database to requests. Must be thread-safe.
 */
public interface ConnectionPool extends AutoCloseable {

    /**
     * Borrows a connection; never blocks waiting for another request to return one. A connection opened for
     * this borrow has been through the pool's {@link ConnectionInitializer}; if that failed, the connection is
     * closed and the failure thrown.
     */
    PooledConnection borrow() throws SQLException;

    /** How many connections are idle in the pool right now. */
    int idleCount();

    /** Closes every idle connection; connections returned later are closed instead of pooled. */
    @Override
    void close();
}
