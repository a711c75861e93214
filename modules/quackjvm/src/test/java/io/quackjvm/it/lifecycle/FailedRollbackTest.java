package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write whose ROLLBACK fails leaves its transaction open on the connection: the engine must close that
 * connection, so that no pool (ours or a third party's) lends it again inside the transaction. Real DuckDB: the
 * test pool swaps the engine's ROLLBACK for a statement that fails in DuckDB.
 */
class FailedRollbackTest {

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
        TestPool pool = new TestPool(sql -> sql.equals("ROLLBACK") ? "SELECT error('test: rollback refused')" : sql,
                () -> { });
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
