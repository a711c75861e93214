package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;
import io.quackjvm.it.CollectionKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code Iterator.remove()} takes effect at once, as on the heap, and an abandoned iterator blocks nobody. */
class IteratorRemoveTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(CollectionKind.class)
    void aRemovalIsVisibleAtOnceAndSurvivesAnAbandonedIterator(CollectionKind kind) throws Exception {
        Path file = dir.resolve(kind + ".duckdb");
        Car removed;
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> cars = kind.make.apply(p);
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(Car.firstN(100));
            Iterator<Car> it = cars.iterator();
            removed = it.next();
            it.remove();
            // visible at once to every later call, before the iterator ends
            assertEquals(99, cars.size());
            assertFalse(cars.contains(removed));
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, removed.manufacturer()))) {
                for (Car c : rs) {
                    assertFalse(c.carId().equals(removed.carId()), "the index still finds the removed car");
                }
            }
            // the iterator goes on after a removal
            Car second = it.next();
            it.remove();
            assertEquals(98, cars.size());
            assertFalse(cars.contains(second));
            // it is abandoned here, never exhausted nor closed: a writer on another thread is not blocked by it
            CompletableFuture<Boolean> writer = CompletableFuture.supplyAsync(() -> cars.add(Car.of(1000)));
            assertTrue(writer.get(60, TimeUnit.SECONDS), "add() on another thread was blocked");
            assertEquals(99, cars.size());
        }
        // the acknowledged removal is in the file, although the iterator was never closed
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> cars = kind.make.apply(p);
            assertEquals(99, cars.size());
            assertFalse(cars.contains(removed));
            assertTrue(cars.contains(Car.of(1000)));
        }
    }

    @ParameterizedTest
    @EnumSource(CollectionKind.class)
    void removingEverythingThroughTheIteratorEmptiesTheCollection(CollectionKind kind) {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID)) {
            IndexedCollection<Car> cars = kind.make.apply(p);
            cars.addAll(Car.firstN(40));
            int seen = 0;
            for (Iterator<Car> it = cars.iterator(); it.hasNext(); ) {
                Car c = it.next();
                seen++;
                if (c.carId() % 2 == 0) {
                    it.remove();
                    assertFalse(cars.contains(c));
                }
            }
            assertEquals(40, seen);
            assertEquals(20, cars.size());
            cars.removeIf(c -> true);
            assertTrue(cars.isEmpty());
        }
    }

    /**
     * An iterator over a covering index's answer (read at once when narrow) refuses remove() as CQEngine's result
     * iterators do on the heap, and leaves the collection as it was.
     */
    @ParameterizedTest
    @EnumSource(CollectionKind.class)
    void aCoveringIndexAnswerRefusesRemoveAsOnTheHeap(CollectionKind kind) {
        Car first = Car.firstN(1).get(0);
        for (boolean duck : new boolean[]{false, true}) {
            try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID)) {
                IndexedCollection<Car> cars = duck ? kind.make.apply(p)
                        : new com.googlecode.cqengine.ConcurrentIndexedCollection<>();
                if (duck) {
                    cars.addIndex(DuckDBIndex.onAttributeCovering(Car.MANUFACTURER));
                }
                cars.addAll(Car.firstN(60));
                try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, first.manufacturer()))) {
                    Iterator<Car> it = rs.iterator();
                    Car seen = it.next();
                    org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class, it::remove,
                            duck ? "DuckDB" : "heap");
                    assertTrue(cars.contains(seen));
                    assertTrue(it.hasNext() || rs.size() == 1, "the iterator goes on");
                }
                assertEquals(60, cars.size());
            }
        }
    }
}
