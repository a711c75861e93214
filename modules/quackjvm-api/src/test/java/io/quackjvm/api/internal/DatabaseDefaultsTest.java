package io.quackjvm.api.internal;

import io.quackjvm.api.spi.ConnectionInitializer;
import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicyProvider;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * The DuckDB settings a database is opened with by default, and that the user's own properties win. The SPI
 * providers around the real DuckDB connection are wiring stand-ins: this module has none of its own.
 */
class DatabaseDefaultsTest {

    private static Database open(Map<String, String> properties) {
        return open(null, properties);
    }

    private static Database open(Path file, Map<String, String> properties) {
        ConnectionPoolProvider pools = mock(ConnectionPoolProvider.class);
        when(pools.create(org.mockito.ArgumentMatchers.any(), org.mockito.ArgumentMatchers.anyInt(),
                org.mockito.ArgumentMatchers.any()))
                .thenAnswer(inv -> duplicatingPool(inv.getArgument(0), inv.getArgument(2)));
        WritePolicyProvider policies = mock(WritePolicyProvider.class);
        ResultReaderProvider reader = mock(ResultReaderProvider.class);
        when(reader.name()).thenReturn("stand-in");
        when(reader.bulk()).thenReturn(false);
        when(reader.unavailableReason()).thenReturn(Optional.empty());
        return Database.open(new DatabaseSettings(file, "256MB", properties, true, 4, pools, policies,
                List.of(reader), false));
    }

    private static ConnectionPool duplicatingPool(Connection root, ConnectionInitializer initializer) {
        ConnectionPool pool = mock(ConnectionPool.class);
        try {
            when(pool.borrow()).thenAnswer(inv -> {
                Connection c = ((DuckDBConnection) root).duplicate();
                initializer.initialize(c);
                PooledConnection pc = mock(PooledConnection.class);
                when(pc.connection()).thenReturn(c);
                return pc;
            });
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        return pool;
    }

    private static String setting(Database db, String name) throws SQLException {
        return value(db, "current_setting('" + name + "')");
    }

    /** The value of a SQL expression on a freshly borrowed connection. */
    private static String value(Database db, String expression) throws SQLException {
        PooledConnection c = db.borrow();
        try (Statement s = c.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT (" + expression + ")::VARCHAR")) {
            rs.next();
            return rs.getString(1);
        } finally {
            c.connection().close();
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
            PooledConnection c = db.borrow();
            try (Statement s = c.connection().createStatement()) {
                s.execute("CREATE TABLE t AS SELECT range::INTEGER AS i FROM range(100000)");
                s.execute("CHECKPOINT " + Database.CATALOG);
                try (ResultSet rs = s.executeQuery(
                        "SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('t')")) {
                    rs.next();
                    assertEquals((100_000 + Database.ROW_GROUP_SIZE - 1) / Database.ROW_GROUP_SIZE, rs.getInt(1),
                            "row groups of " + Database.ROW_GROUP_SIZE + " rows, not DuckDB's 122,880");
                }
            } finally {
                c.connection().close();
            }
        }
        try (Connection plain = java.sql.DriverManager.getConnection("jdbc:duckdb:" + file);
             Statement s = plain.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertEquals(100_000, rs.getInt(1), "the file is an ordinary DuckDB database");
        }
    }
}
