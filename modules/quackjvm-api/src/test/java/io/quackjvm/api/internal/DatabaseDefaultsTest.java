package io.quackjvm.api.internal;

import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicyProvider;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;

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
        ConnectionPoolProvider pools = mock(ConnectionPoolProvider.class);
        when(pools.create(org.mockito.ArgumentMatchers.any(), org.mockito.ArgumentMatchers.anyInt()))
                .thenAnswer(inv -> duplicatingPool(inv.getArgument(0)));
        WritePolicyProvider policies = mock(WritePolicyProvider.class);
        ResultReaderProvider reader = mock(ResultReaderProvider.class);
        when(reader.name()).thenReturn("stand-in");
        when(reader.bulk()).thenReturn(false);
        when(reader.unavailableReason()).thenReturn(Optional.empty());
        return Database.open(new DatabaseSettings(null, "256MB", properties, true, 4, pools, policies,
                List.of(reader)));
    }

    private static ConnectionPool duplicatingPool(Connection root) {
        ConnectionPool pool = mock(ConnectionPool.class);
        try {
            when(pool.borrow()).thenAnswer(inv -> {
                Connection c = ((DuckDBConnection) root).duplicate();
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
        PooledConnection c = db.borrow();
        try (Statement s = c.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT current_setting('" + name + "')::VARCHAR")) {
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
}
