package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SmokeTest {

    @Test
    void addAndRetrieveByPrimaryKey() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID)) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            List<Car> batch = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                batch.add(Car.of(i));
            }
            assertTrue(cars.addAll(batch));
            assertTrue(cars.add(Car.of(1000)));
            assertEquals(101, cars.size());
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, 7))) {
                assertEquals(Car.of(7), rs.uniqueResult());
                assertTrue(rs.getRetrievalCost() < Integer.MAX_VALUE);
            }
        }
    }
}
