package io.quackjvm.it.cache;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.ObjectLockingIndexedCollection;
import com.googlecode.cqengine.TransactionalIndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.ObjectCacheStats;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The object cache through every write path: a cached key is never read stale after a write, committed or not. */
class ObjectCacheTest {

    private DuckDBPersistence<Car, Integer> persistence;

    @AfterEach
    void close() {
        if (persistence != null) {
            persistence.close();
        }
    }

    private IndexedCollection<Car> cars(int cacheSize) {
        persistence = DuckDBPersistence.builder(Car.CAR_ID).objectCacheSize(cacheSize).appenderThreshold(4).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        cars.addAll(Car.firstN(20));
        return cars;
    }

    private static Car lookup(IndexedCollection<Car> cars, int id) {
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, id))) {
            Iterator<Car> it = rs.iterator(); // one pass: isEmpty() and uniqueResult() would look up twice
            return it.hasNext() ? it.next() : null;
        }
    }

    /** Looks the key up twice, so that it is cached (the second is a hit when the first filled it). */
    private Car warm(IndexedCollection<Car> cars, int id) {
        lookup(cars, id);
        long hits = persistence.cacheStats().hits();
        Car c = lookup(cars, id);
        assertEquals(hits + 1, persistence.cacheStats().hits(), "key " + id + " was not cached");
        return c;
    }

    @Test
    void offByDefaultAndRefusesANegativeSize() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID)) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addAll(Car.firstN(3));
            assertEquals(Car.of(1), lookup(cars, 1));
            assertEquals(new ObjectCacheStats(0, 0, 0, 0, 0), p.cacheStats());
        }
        assertThrows(IllegalArgumentException.class, () -> DuckDBPersistence.builder(Car.CAR_ID).objectCacheSize(-1));
    }

    @Test
    void aHitIsTheCachedInstanceAndIsCounted() {
        IndexedCollection<Car> cars = cars(100);
        Car first = lookup(cars, 7);
        ObjectCacheStats s = persistence.cacheStats();
        assertEquals(1, s.misses());
        assertEquals(0, s.hits());
        assertEquals(1, s.size());
        assertEquals(100, s.maxSize());
        Car second = lookup(cars, 7);
        assertSame(first, second, "a hit hands out the cached instance, as the heap does");
        assertEquals(Car.of(7), second);
        assertEquals(1, persistence.cacheStats().hits());
        assertNull(lookup(cars, 999), "an absent key is a miss and caches nothing");
        assertEquals(1, persistence.cacheStats().size());
        assertTrue(cars.contains(Car.of(7)));
        assertFalse(cars.contains(Car.of(7).withPrice(1)), "contains compares with equals, from the cache too");
        assertEquals(3, persistence.cacheStats().hits());
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, 7))) {
            assertEquals(1, rs.size());
        }
    }

    @Test
    void aResultIteratedTwiceHandsOutItsObjectsEachTimeAndItsCloseEndsEveryCursor() {
        IndexedCollection<Car> cars = cars(100);
        Car cached = warm(cars, 7);
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, 7))) {
            Iterator<Car> a = rs.iterator();
            Iterator<Car> b = rs.iterator();
            assertSame(cached, a.next());
            assertFalse(a.hasNext());
            assertSame(cached, b.next(), "a second pass over a hit hands out the object again");
            assertFalse(b.hasNext());
        }
        // a miss, then the same result again: one statement per pass
        try (ResultSet<Car> miss = cars.retrieve(equal(Car.CAR_ID, 8))) {
            Iterator<Car> first = miss.iterator();
            Iterator<Car> second = miss.iterator();
            assertEquals(Car.of(8), second.next());
            assertEquals(Car.of(8), first.next());
            assertFalse(first.hasNext());
        }
        // closed on another thread, where no request of this thread ends them: the result closes every cursor
        // it opened itself
        ResultSet<Car> range = cars.retrieve(com.googlecode.cqengine.query.QueryFactory.lessThan(Car.CAR_ID, 10));
        Iterator<Car> r1 = range.iterator();
        Iterator<Car> r2 = range.iterator();
        Iterator<Car> r3 = range.iterator();
        r1.next();
        r2.next();
        r3.next();
        java.util.concurrent.CompletableFuture.runAsync(range::close).join();
        assertFalse(r1.hasNext(), "closing the result ends its first cursor");
        assertFalse(r2.hasNext(), "and every later one");
        assertFalse(r3.hasNext(), "and every later one");
        assertSame(cached, lookup(cars, 7));
    }

    @Test
    void anInOnTheKeyIsAnsweredFromTheCacheWhenEveryKeyIsThere() {
        IndexedCollection<Car> cars = cars(100);
        List<Car> got = new ArrayList<>();
        try (ResultSet<Car> rs = cars.retrieve(in(Car.CAR_ID, 1, 2, 3, 99))) {
            rs.forEach(got::add);
        }
        assertEquals(3, got.size());
        long hits = persistence.cacheStats().hits();
        got.clear();
        try (ResultSet<Car> rs = cars.retrieve(in(Car.CAR_ID, 1, 2, 3))) {
            rs.forEach(got::add);
        }
        assertEquals(List.of(Car.of(1), Car.of(2), Car.of(3)), got.stream()
                .sorted(java.util.Comparator.comparing(Car::carId)).toList());
        assertEquals(hits + 3, persistence.cacheStats().hits());
    }

    /** Each write path, named, applied to a collection whose key 5 is cached; then key 5 must read as stored. */
    @ParameterizedTest
    @ValueSource(strings = {"add", "addAllLarge", "remove", "removeAll", "update", "retainAll", "clear",
            "iteratorRemove"})
    void everyWritePathLeavesNoStaleObject(String path) {
        IndexedCollection<Car> cars = cars(100);
        warm(cars, 5);
        Car replacement = Car.of(5).withPrice(1.5);
        switch (path) {
            case "add" -> cars.add(replacement);
            case "addAllLarge" -> {
                List<Car> batch = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    batch.add(Car.of(i).withPrice(1.5));
                }
                cars.addAll(batch);
            }
            case "remove" -> assertTrue(cars.remove(Car.of(5)));
            case "removeAll" -> assertTrue(cars.removeAll(List.of(Car.of(5), Car.of(6))));
            case "update" -> assertTrue(cars.update(List.of(Car.of(5)), List.of(replacement)));
            case "retainAll" -> assertTrue(cars.retainAll(List.of(Car.of(1), Car.of(2))));
            case "clear" -> cars.clear();
            case "iteratorRemove" -> {
                Iterator<Car> it = cars.iterator();
                while (it.hasNext()) {
                    if (it.next().carId() == 5) {
                        it.remove();
                    }
                }
            }
            default -> throw new AssertionError(path);
        }
        boolean replaced = path.equals("add") || path.equals("addAllLarge") || path.equals("update");
        Car expected = replaced ? replacement : null;
        assertEquals(expected, lookup(cars, 5), path);
        assertEquals(expected, lookup(cars, 5), path + " (second lookup)");
        assertEquals(replaced, cars.contains(replacement), path);
        assertFalse(cars.contains(Car.of(5)), path);
        if (replaced) {
            assertEquals(replacement, warm(cars, 5), "the cache fills again after " + path);
        }
    }

    /** Throws for a negative price: an index on it makes a write fail half way, inside its transaction. */
    static final SimpleAttribute<Car, Double> PRICE_OR_FAIL = new SimpleAttribute<>(Car.class, Double.class,
            "priceOrFail") {
        @Override
        public Double getValue(Car car, QueryOptions queryOptions) {
            if (car.price() < 0) {
                throw new IllegalStateException("poisoned car " + car.carId());
            }
            return car.price();
        }
    };

    @ParameterizedTest
    @ValueSource(strings = {"concurrent", "objectLocking", "transactional"})
    void aRolledBackWriteLeavesTheCacheExact(String kind) {
        persistence = DuckDBPersistence.builder(Car.CAR_ID).objectCacheSize(100).appenderThreshold(4).build();
        Function<DuckDBPersistence<Car, Integer>, IndexedCollection<Car>> make = switch (kind) {
            case "concurrent" -> ConcurrentIndexedCollection::new;
            case "objectLocking" -> ObjectLockingIndexedCollection::new;
            default -> p -> new TransactionalIndexedCollection<>(Car.class, p);
        };
        IndexedCollection<Car> cars = make.apply(persistence);
        cars.addAll(Car.firstN(20));
        cars.addIndex(DuckDBIndex.onAttribute(PRICE_OR_FAIL));
        warm(cars, 5);
        Car poison = Car.of(6).withPrice(-1);
        assertThrows(RuntimeException.class,
                () -> cars.update(List.of(Car.of(5)), List.of(Car.of(5).withPrice(2.5), poison)));
        assertEquals(Car.of(5), lookup(cars, 5), kind + ": the rolled-back update is not visible");
        assertEquals(Car.of(6), lookup(cars, 6));
        assertEquals(Car.of(5), warm(cars, 5), kind + ": the cache fills again after a rollback");
        // and a committed update through the same collection type is seen at once
        assertTrue(cars.update(List.of(Car.of(5)), List.of(Car.of(5).withPrice(3.5))));
        assertEquals(Car.of(5).withPrice(3.5), lookup(cars, 5), kind);
        assertEquals(Car.of(5).withPrice(3.5), warm(cars, 5), kind);
    }

    @Test
    void aBulkWriterLoadReplacesCachedObjectsAtCommitAndARolledBackOneLeavesThem() {
        IndexedCollection<Car> cars = cars(100);
        Car cached = lookup(cars, 9);
        try (DuckDBBulkWriter<Car> writer = persistence.bulkWriter()) {
            writer.add(Car.of(9).withPrice(2.5));
            assertSame(cached, lookup(cars, 9), "an uncommitted load is not seen, from the cache either");
        } // closed without commit: discarded
        assertEquals(cached, lookup(cars, 9));
        try (DuckDBBulkWriter<Car> writer = persistence.bulkWriter()) {
            writer.add(Car.of(9).withPrice(3.5));
            writer.commit();
        }
        assertEquals(Car.of(9).withPrice(3.5), lookup(cars, 9));
    }

    @Test
    void aBulkWriterLoadOfManyChunksKeepsTheCacheExactForCheckedAndUncheckedChunks() {
        persistence = DuckDBPersistence.builder(Car.CAR_ID).objectCacheSize(100).stagingChunkRows(8).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        cars.addAll(Car.firstN(50));
        Car five = warm(cars, 5);
        warm(cars, 40);
        try (DuckDBBulkWriter<Car> writer = persistence.bulkWriter()) {
            for (int i = 100; i < 140; i++) {
                writer.add(Car.of(i)); // chunks above every stored key: appended without the replace check
            }
            Car repeated = lookup(cars, 105); // not visible yet, and nothing of the load gets cached
            assertEquals(null, repeated);
            writer.add(Car.of(5).withPrice(1.5));
            writer.add(Car.of(40));
            writer.add(Car.of(105).withPrice(2.5));
            writer.add(Car.of(41).withPrice(4.5));
            assertSame(five, lookup(cars, 5), "an uncommitted load is not seen, from the cache either");
            writer.commit();
        }
        assertEquals(Car.of(5).withPrice(1.5), lookup(cars, 5));
        assertEquals(Car.of(40), lookup(cars, 40));
        assertEquals(Car.of(105).withPrice(2.5), lookup(cars, 105));
        assertEquals(Car.of(41).withPrice(4.5), lookup(cars, 41));
        assertEquals(90, cars.size());
    }

    @Test
    void theBoundIsKeptAndEvictionsCounted() {
        persistence = DuckDBPersistence.builder(Car.CAR_ID).objectCacheSize(16).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        cars.addAll(Car.firstN(300));
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 300; i++) {
                assertEquals(Car.of(i), lookup(cars, i));
                assertTrue(persistence.cacheStats().size() <= 16, "size above the bound");
            }
        }
        ObjectCacheStats s = persistence.cacheStats();
        assertTrue(s.size() <= 16 && s.size() > 0, s.toString());
        assertTrue(s.evictions() >= 300 * 3 - 16 - s.hits(), s.toString());
        assertEquals(900, s.hits() + s.misses(), s.toString());
    }

    @Test
    void aCachedKeyIsRefusedAfterClose() {
        IndexedCollection<Car> cars = cars(10);
        warm(cars, 3);
        persistence.close();
        assertThrows(PersistenceClosedException.class, () -> lookup(cars, 3));
        assertEquals(0, persistence.cacheStats().size(), "close() empties the cache");
        persistence = null;
    }
}
