package io.quackjvm.api.internal.database;

import io.quackjvm.api.spi.ConnectionInitializer;
import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.WritePolicy;
import io.quackjvm.api.spi.WritePolicyProvider;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The DuckDB settings a database is opened with by default, and that the user's own properties win. Real DuckDB
 * throughout; this module has no providers of its own, so the test brings the smallest real ones: a pool that
 * lends a fresh {@code duplicate()} of the root connection per borrow, one lock per collection, and a reader
 * over JDBC getters.
 */
class DatabaseDefaultsTest {

    /** Each borrow is a new duplicate of the root connection, closed when handed back; none are kept. */
    private static final class DuplicatePerBorrow implements ConnectionPoolProvider {
        @Override
        public String name() {
            return "test-duplicate-per-borrow";
        }

        @Override
        public ConnectionPool create(Connection root, int maxPooled, ConnectionInitializer initializer) {
            return new ConnectionPool() {
                @Override
                public PooledConnection borrow() throws SQLException {
                    Connection c = root.unwrap(DuckDBConnection.class).duplicate();
                    initializer.initialize(c);
                    return new PooledConnection() {
                        @Override
                        public Connection connection() {
                            return c;
                        }

                        @Override
                        public PreparedStatement prepare(String sql) throws SQLException {
                            return c.prepareStatement(sql);
                        }

                        @Override
                        public void recycle(PreparedStatement statement) {
                            try {
                                statement.close();
                            } catch (SQLException e) {
                                throw new IllegalStateException(e);
                            }
                        }

                        @Override
                        public void close() {
                            try {
                                c.close();
                            } catch (SQLException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    };
                }

                @Override
                public int idleCount() {
                    return 0;
                }

                @Override
                public void close() {
                }
            };
        }
    }

    private static final class LockPerCollection implements WritePolicyProvider {
        @Override
        public String name() {
            return "test-lock-per-collection";
        }

        @Override
        public WritePolicy create(boolean serializeWrites) {
            Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
            return collection -> locks.computeIfAbsent(collection, k -> new ReentrantLock());
        }
    }

    /** The row-by-row reader a database requires; these tests read through plain JDBC, never through it. */
    private static final class UnusedReader implements ResultReaderProvider {
        @Override
        public String name() {
            return "test-unused-reader";
        }

        @Override
        public boolean bulk() {
            return false;
        }

        @Override
        public Optional<String> unavailableReason() {
            return Optional.empty();
        }

        @Override
        public RowCursor open(ResultSet rs) {
            throw new UnsupportedOperationException("these tests read through plain JDBC");
        }
    }

    private static Database open(Map<String, String> properties) {
        return open(null, properties);
    }

    private static Database open(Path file, Map<String, String> properties) {
        return Database.open(new DatabaseSettings(file, "256MB", properties, true, 4, new DuplicatePerBorrow(),
                new LockPerCollection(), List.of(new UnusedReader()), false, StatementSettings.NONE));
    }

    private static String setting(Database db, String name) throws SQLException {
        return value(db, "current_setting('" + name + "')");
    }

    /** The value of a SQL expression on a freshly borrowed connection. */
    private static String value(Database db, String expression) throws SQLException {
        try (PooledConnection c = db.borrow(); Statement s = c.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT (" + expression + ")::VARCHAR")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void theAllocatorPurgesFreedMemoryInTheBackgroundUnlessTheUserSaysOtherwise() throws Exception {
        try (Database db = open(Map.of())) {
            assertEquals("true", setting(db, "allocator_background_threads"));
            assertEquals("244.1 MiB", setting(db, "memory_limit"), "256MB is decimal: 256,000,000 bytes");
        }
        try (Database db = open(Map.of("allocator_background_threads", "false"))) {
            assertEquals("false", setting(db, "allocator_background_threads"));
        }
    }

    @Test
    void aFileIsAttachedWithSmallRowGroupsAndEveryConnectionUsesIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("attached.duckdb");
        try (Database db = open(file, Map.of())) {
            // every borrowed connection (each a fresh duplicate here) works in the file, not the in-memory root
            assertEquals(Database.CATALOG, value(db, "current_database()"));
            assertEquals(Database.CATALOG, value(db, "current_database()"));
            assertEquals(file + ".tmp", setting(db, "temp_directory"), "spill files go next to the database");
            try (PooledConnection c = db.borrow(); Statement s = c.connection().createStatement()) {
                s.execute("CREATE TABLE t AS SELECT range::INTEGER AS i FROM range(100000)");
                s.execute("CHECKPOINT " + Database.CATALOG);
                try (ResultSet rs = s.executeQuery(
                        "SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('t')")) {
                    rs.next();
                    assertEquals((100_000 + Database.ROW_GROUP_SIZE - 1) / Database.ROW_GROUP_SIZE, rs.getInt(1),
                            "row groups of " + Database.ROW_GROUP_SIZE + " rows, not DuckDB's 122,880");
                }
            }
        }
        try (Connection plain = java.sql.DriverManager.getConnection("jdbc:duckdb:" + file);
             Statement s = plain.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertEquals(100_000, rs.getInt(1), "the file is an ordinary DuckDB database");
        }
    }
}
