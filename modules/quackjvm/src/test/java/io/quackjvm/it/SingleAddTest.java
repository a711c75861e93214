package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.ObjectLockingIndexedCollection;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CQEngine's add of one object takes a short path (one auto-committed INSERT, or one transaction with the index
 * rows) when the key is new: the heap's semantics must hold on every branch of it, and a store add made inside a
 * larger request (update of an Iterable) keeps the request's path. Also optimize() and compact() giving memory
 * back leave the database usable.
 */
class SingleAddTest {

    @TempDir
    Path dir;

    private static int count(IndexedCollection<Car> cars, String manufacturer) {
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, manufacturer))) {
            return rs.size();
        }
    }

    private void addSemantics(Function<DuckDBPersistence<Car, Integer>, IndexedCollection<Car>> wrap, boolean indexed,
                              String file) {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(dir.resolve(file)).build()) {
            IndexedCollection<Car> cars = wrap.apply(p);
            if (indexed) {
                cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            }
            Car ford = Car.of(0);
            assertTrue(cars.add(ford), "a new key is added");
            assertFalse(cars.add(Car.of(0)), "an equal object is a no-op");
            Car other = new Car(0, "Honda", "Civic", Car.Colour.values()[0], 4, 1.0, List.of());
            assertTrue(cars.add(other), "a different object under the same key replaces it");
            assertEquals(1, cars.size());
            assertTrue(cars.contains(other));
            assertFalse(cars.contains(ford));
            assertEquals(0, count(cars, "Ford"));
            assertEquals(1, count(cars, "Honda"));
            for (int i = 1; i < 20; i++) {
                assertTrue(cars.add(Car.of(i)));
            }
            assertEquals(20, cars.size());
            assertEquals(3, count(cars, "Ford"), "ids 5, 10, 15 (id 0 is a Honda now)");
        }
    }

    @Test
    void addKeepsSetSemanticsOnEveryPath() {
        addSemantics(ConcurrentIndexedCollection::new, false, "a.duckdb");
        addSemantics(ConcurrentIndexedCollection::new, true, "b.duckdb");
        addSemantics(ObjectLockingIndexedCollection::new, true, "c.duckdb");
    }

    @Test
    void storeAddsInsideALargerRequestBehaveAsOnTheHeap() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(dir.resolve("d.duckdb")).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            IndexedCollection<Car> heap = new ConcurrentIndexedCollection<>();
            // An Iterable that is not a Collection: CQEngine adds its objects one store add at a time, in one
            // request (not CQEngine's plain add, so not the short path); its source fails after two objects.
            for (IndexedCollection<Car> c : List.of(cars, heap)) {
                assertThrows(IllegalStateException.class, () -> c.update(List.of(), failingAfterTwo(), new QueryOptions()));
            }
            assertEquals(heap.size(), cars.size());
            assertEquals(2, cars.size());
            assertTrue(cars.contains(Car.of(1)));
        }
    }

    private static Iterable<Car> failingAfterTwo() {
        return () -> new Iterator<>() {
            int i;

            @Override
            public boolean hasNext() {
                if (i == 2) {
                    throw new IllegalStateException("the source failed");
                }
                return true;
            }

            @Override
            public Car next() {
                return Car.of(i++);
            }
        };
    }

    @Test
    void optimizeGivesBackMemoryAndLeavesTheLimitUsable() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(dir.resolve("e.duckdb"))
                .memoryLimit("64MB").build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(Car.firstN(20_000));
            p.optimize();
            // The limit is back: a query and a write after the give-back work as before.
            assertEquals(4_000, count(cars, "Ford"));
            cars.addAll(Car.firstN(30_000));
            assertEquals(30_000, cars.size());
            p.compact();
            assertEquals(6_000, count(cars, "Ford"));
        }
    }
}
