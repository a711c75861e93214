package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.TransactionalIndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;
import io.quackjvm.it.CollectionKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls made on a collection while the same thread still reads one of its results behave as on the heap: the
 * result goes on to its end, and a write takes effect at once (other threads see it, and it is stored even when
 * the result is never closed), however many wrappers stand between the application and the collection.
 */
class WritesWhileReadingTest {

    /** Wrappers deeper than any fixed number of call frames a library could look through. */
    private static final int WRAPPERS = 40;

    @TempDir
    Path dir;

    private static <T> T onOtherThread(java.util.function.Supplier<T> work) throws Exception {
        return CompletableFuture.supplyAsync(work).get(60, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(CollectionKind.class)
    void readsInsideAnIterationLeaveItGoingToItsEnd(CollectionKind kind) {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID)) {
            IndexedCollection<Car> cars = kind.make.apply(p);
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(Car.firstN(300));
            Set<Integer> seen = new HashSet<>();
            for (Car c : cars) {
                assertEquals(300, cars.size());
                assertTrue(cars.contains(c));
                seen.add(c.carId());
            }
            assertEquals(300, seen.size(), "the collection's iterator stopped early");
            seen.clear();
            ResultSet<Car> rs = cars.retrieve(all(Car.class));
            for (Car c : rs) {
                assertTrue(cars.contains(c));
                try (ResultSet<Car> inner = cars.retrieve(equal(Car.MANUFACTURER, c.manufacturer()))) {
                    assertTrue(inner.size() > 0);
                }
                seen.add(c.carId());
            }
            assertEquals(300, seen.size(), "a result stopped early");
        }
    }

    /**
     * TransactionalIndexedCollection is left out: its writers wait for every reader of the current version, so on
     * the heap too a thread removing while its own result is open waits for itself.
     */
    @ParameterizedTest
    @EnumSource(value = CollectionKind.class, names = {"CONCURRENT", "OBJECT_LOCKING"})
    void aDirectRemoveWhileReadingTakesEffectAtOnceAndTheReadGoesOn(CollectionKind kind) throws Exception {
        Path file = dir.resolve(kind + ".duckdb");
        Set<Integer> removed = new HashSet<>();
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> cars = kind.make.apply(p);
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(Car.firstN(200));
            ResultSet<Car> rs = cars.retrieve(all(Car.class));
            int seen = 0;
            for (Car c : rs) {
                seen++;
                if (c.carId() % 3 == 0) {
                    assertTrue(cars.remove(c));
                    removed.add(c.carId());
                    assertFalse(onOtherThread(() -> cars.contains(c)), "another thread still sees " + c.carId());
                    assertEquals(200 - removed.size(), (int) onOtherThread(cars::size));
                }
            }
            assertEquals(200, seen, "the result stopped early");
            // rs is abandoned here, never closed: writers on other threads are not blocked by it
            assertTrue(onOtherThread(() -> cars.add(Car.of(1000))));
        }
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> cars = kind.make.apply(p);
            assertEquals(201 - removed.size(), cars.size(), "acknowledged removals were lost");
            for (int id : removed) {
                assertFalse(cars.contains(Car.of(id)));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CollectionKind.class)
    void iteratorRemoveThroughManyWrappersTakesEffectAtOnce(CollectionKind kind) throws Exception {
        Path file = dir.resolve(kind + ".duckdb");
        List<Integer> removed = new ArrayList<>();
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> cars = wrap(kind.make.apply(p), WRAPPERS);
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(Car.firstN(50));
            Iterator<Car> it = wrap(cars.iterator(), WRAPPERS);
            for (int i = 0; i < 5; i++) {
                Car c = it.next();
                it.remove();
                removed.add(c.carId());
                assertFalse(onOtherThread(() -> cars.contains(c)), "another thread still sees " + c.carId());
            }
            assertTrue(onOtherThread(() -> cars.add(Car.of(1000))), "a writer was blocked");
            assertEquals(46, cars.size());
        }
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> cars = kind.make.apply(p);
            assertEquals(46, cars.size());
            for (int id : removed) {
                assertFalse(cars.contains(Car.of(id)));
            }
        }
    }

    /** A single add through many wrappers, and inside a subclass, keeps the heap's answers. */
    @Test
    void singleAddsThroughWrappersAndSubclassesKeepTheirAnswers() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID)) {
            IndexedCollection<Car> cars = wrap(new ConcurrentIndexedCollection<>(p) {
                @Override
                public boolean add(Car o) {
                    return super.add(o);
                }
            }, WRAPPERS);
            assertTrue(cars.add(Car.of(1)));
            assertFalse(cars.add(Car.of(1)), "an equal object is a no-op");
            Car replacement = new Car(1, "Honda", "Civic", Car.Colour.RED, 4, 1.0, List.of());
            assertTrue(cars.add(replacement));
            assertEquals(1, cars.size());
            assertTrue(cars.contains(replacement));
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T wrap(T target, int depth) {
        T current = target;
        for (int i = 0; i < depth; i++) {
            T inner = current;
            InvocationHandler handler = (proxy, method, args) -> {
                try {
                    return method.invoke(inner, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            Class<?> type = target instanceof IndexedCollection ? IndexedCollection.class : Iterator.class;
            current = (T) Proxy.newProxyInstance(WritesWhileReadingTest.class.getClassLoader(), new Class<?>[]{type},
                    handler);
        }
        return current;
    }
}
