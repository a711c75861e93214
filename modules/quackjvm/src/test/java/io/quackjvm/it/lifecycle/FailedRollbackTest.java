package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.spi.ConnectionInitializer;
import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.it.Car;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write whose ROLLBACK fails leaves its transaction open on the connection: the engine must close that
 * connection, so that no pool (ours or a third party's) lends it again inside the transaction. Real DuckDB: the
 * test pool swaps the engine's ROLLBACK for a statement that fails in DuckDB.
 */
class FailedRollbackTest {

    /** Lends a new duplicate per borrow; records, per connection, whether it was closed when handed back. */
    private static final class RefusingRollbackPool implements ConnectionPoolProvider {
        final Map<Connection, Boolean> closedOnReturn = new ConcurrentHashMap<>();

        @Override
        public String name() {
            return "test-refusing-rollback";
        }

        @Override
        public ConnectionPool create(Connection root, int maxPooled, ConnectionInitializer initializer) {
            return new ConnectionPool() {
                @Override
                public PooledConnection borrow() throws SQLException {
                    Connection c = root.unwrap(DuckDBConnection.class).duplicate();
                    initializer.initialize(c);
                    return new Borrowed(c);
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
            public PreparedStatement prepare(String sql) throws SQLException {
                return c.prepareStatement(sql.equals("ROLLBACK") ? "SELECT error('test: rollback refused')" : sql);
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
                    closedOnReturn.put(c, c.isClosed());
                    c.close();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** An attribute that fails for car 2, so that a write of it fails and is rolled back. */
    private static final SimpleAttribute<Car, String> FAILS_FOR_2 = new SimpleAttribute<>(Car.class, String.class,
            "failsFor2") {
        @Override
        public String getValue(Car car, QueryOptions queryOptions) {
            if (car.carId() == 2) {
                throw new IllegalStateException("test: attribute fails");
            }
            return car.manufacturer();
        }
    };

    @Test
    void aConnectionWhoseRollbackFailedIsClosedBeforeItGoesBack() {
        RefusingRollbackPool pool = new RefusingRollbackPool();
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).connectionPool(pool).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addIndex(DuckDBIndex.onAttribute(FAILS_FOR_2));
            pool.closedOnReturn.clear();
            assertThrows(RuntimeException.class, () -> cars.addAll(List.of(Car.of(1), Car.of(2))));
            assertTrue(pool.closedOnReturn.containsValue(true),
                    "The connection whose ROLLBACK failed went back to the pool open: " + pool.closedOnReturn);
            assertEquals(0, cars.size(), "Nothing of the failed write may be stored");
        }
    }
}
