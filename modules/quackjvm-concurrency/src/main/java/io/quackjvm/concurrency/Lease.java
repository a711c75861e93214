package io.quackjvm.concurrency;

import io.quackjvm.api.spi.PooledConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One pooled connection with its cache of prepared statements. DuckDB spends about 200 us preparing a
 * statement, so a statement is kept with its connection between requests. A statement lent out (for example
 * one whose result set is still being read) is not in the cache, so no later request can cut it short.
 * Not thread-safe: it belongs to one request at a time.
 */
final class Lease implements PooledConnection {

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

    Lease(DuplicatingPool pool, Connection connection) {
        this.pool = pool;
        this.connection = connection;
    }

    @Override
    public Connection connection() {
        return connection;
    }

    @Override
    public PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement statement = cache.remove(sql);
        if (statement == null || statement.isClosed()) {
            statement = connection.prepareStatement(sql);
        }
        lent.put(statement, sql);
        return statement;
    }

    @Override
    public void recycle(PreparedStatement statement) {
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

    @Override
    public void close() {
        for (PreparedStatement statement : lent.keySet()) {
            closeQuietly(statement);
        }
        lent.clear();
        pool.giveBack(this);
    }

    void closeNow() {
        for (PreparedStatement statement : cache.values()) {
            closeQuietly(statement);
        }
        cache.clear();
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing
        }
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException ignored) {
            // closing
        }
    }
}
