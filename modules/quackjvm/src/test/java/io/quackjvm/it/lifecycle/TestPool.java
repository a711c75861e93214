package io.quackjvm.it.lifecycle;

import io.quackjvm.api.spi.ConnectionInitializer;
import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.PooledConnection;
import org.duckdb.DuckDBConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A real connection pool (its own provider, one pool at a time) for lifecycle tests that need to see the engine's side of the SPI: it lends a new
 * {@code duplicate()} of the root connection per borrow and closes it when handed back, records whether the
 * engine had closed it itself by then, counts {@code close()} calls and runs a hook in them, may swap the SQL
 * the engine prepares, and records the root connection it was given.
 */
final class TestPool implements ConnectionPoolProvider, ConnectionPool {

    /** Per lent connection: whether it was already closed when handed back. */
    final Map<Connection, Boolean> closedOnReturn = new ConcurrentHashMap<>();
    final AtomicInteger poolCloses = new AtomicInteger();
    private final UnaryOperator<String> sql;
    private final Runnable onClose;
    /** The root connection the engine gave the last pool created, and its DuckDB temp_directory then. */
    volatile Connection root;
    volatile String rootTempDirectory;
    private volatile ConnectionInitializer initializer;

    TestPool(UnaryOperator<String> sql, Runnable onClose) {
        this.sql = sql;
        this.onClose = onClose;
    }

    @Override
    public String name() {
        return "test-pool";
    }

    /** One pool at a time: creating it records the root connection and its temp_directory. */
    @Override
    public ConnectionPool create(Connection root, int maxPooled, ConnectionInitializer initializer) {
        this.root = root;
        this.initializer = initializer;
        try (Statement s = root.createStatement();
             ResultSet rs = s.executeQuery("SELECT current_setting('temp_directory')")) {
            rs.next();
            rootTempDirectory = rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    @Override
    public void close() {
        poolCloses.incrementAndGet();
        onClose.run();
    }

    @Override
    public PooledConnection borrow() throws SQLException {
        Connection c = root.unwrap(DuckDBConnection.class).duplicate();
        initializer.initialize(c);
        return new Borrowed(c);
    }

    /** Nothing is kept idle. */
    @Override
    public int idleCount() {
        return 0;
    }

    private static void closeOrFail(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** One borrow: the engine's side of the SPI as a third-party pool would see it. */
    private final class Borrowed implements PooledConnection {
        private final Connection c;

        Borrowed(Connection c) {
            this.c = c;
        }

        @Override
        public Connection connection() {
            return c;
        }

        @Override
        public PreparedStatement prepare(String text) throws SQLException {
            return c.prepareStatement(sql.apply(text));
        }

        @Override
        public void recycle(PreparedStatement statement) {
            closeOrFail(statement);
        }

        @Override
        public void close() {
            closeOrFail(() -> closedOnReturn.put(c, c.isClosed()));
            closeOrFail(c);
        }
    }
}
