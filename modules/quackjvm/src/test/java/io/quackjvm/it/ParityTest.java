package io.quackjvm.it;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.persistence.onheap.OnHeapPersistence;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.has;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every collection operation gives the same answers and leaves the same contents on a DuckDB-backed collection
 * as on an on-heap one, for each of CQEngine's three collection types.
 */
class ParityTest {

    private DuckDBPersistence<Car, Integer> persistence;

    @AfterEach
    void close() {
        if (persistence != null) {
            persistence.close();
        }
    }

    private static Set<Car> contents(IndexedCollection<Car> c) {
        Set<Car> out = new HashSet<>();
        for (Car car : c) {
            out.add(car);
        }
        return out;
    }

    private static Set<Car> retrieve(IndexedCollection<Car> c, Query<Car> q) {
        try (ResultSet<Car> rs = c.retrieve(q)) {
            Set<Car> out = new HashSet<>();
            rs.forEach(out::add);
            return out;
        }
    }

    private static List<Car> cars(int from, int to) {
        List<Car> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(Car.of(i));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(CollectionKind.class)
    void everyOperationMatchesOnHeap(CollectionKind kind) {
        persistence = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
        IndexedCollection<Car> heap = kind.make.apply(OnHeapPersistence.onPrimaryKey(Car.CAR_ID));
        IndexedCollection<Car> duck = kind.make.apply(persistence);
        List<Function<IndexedCollection<Car>, Object>> steps = List.of(
                c -> c.isEmpty(),
                c -> c.add(Car.of(1)),
                c -> c.add(Car.of(1)),                          // equal object again: no change
                c -> c.addAll(cars(0, 10)),                     // small batch: prepared statements
                c -> c.addAll(cars(5, 200)),                    // large batch: Appender, with overlap
                c -> c.addAll(cars(100, 150)),                  // large batch, all present and equal
                c -> c.addAll(List.of(Car.of(1), Car.of(9_000), Car.of(9_001))),  // small, padded IN list: equal, new, new
                c -> c.size(),
                c -> c.contains(Car.of(7)),
                c -> c.contains(Car.of(7).withPrice(1)),        // same key, different object
                c -> c.contains(Car.of(10_000)),
                c -> c.containsAll(cars(3, 9)),
                c -> c.containsAll(List.of(Car.of(3), Car.of(9999))),
                c -> c.remove(Car.of(3)),
                c -> c.remove(Car.of(3)),
                c -> c.remove(Car.of(4).withPrice(1)),          // same key, not equal: stays
                c -> c.removeAll(cars(20, 30)),
                c -> c.removeAll(List.of(Car.of(31), Car.of(32).withPrice(1), Car.of(8_888))),  // removed, not equal, absent
                c -> c.removeAll(cars(40, 80)),                 // large batch
                c -> c.update(cars(80, 85), cars(300, 305)),
                c -> c.update(List.of(Car.of(90)), List.of(Car.of(90).withPrice(42))),
                c -> c.retainAll(cars(0, 150)),
                c -> contents(c),
                c -> retrieve(c, all(Car.class)),
                c -> retrieve(c, equal(Car.CAR_ID, 90)),
                c -> retrieve(c, equal(Car.CAR_ID, 3)),
                c -> retrieve(c, in(Car.CAR_ID, 1, 2, 3, 90, 140, 5000)),
                c -> retrieve(c, lessThan(Car.CAR_ID, 12)),
                c -> retrieve(c, greaterThan(Car.CAR_ID, 140)),
                c -> retrieve(c, between(Car.CAR_ID, 5, false, 15, true)),
                c -> retrieve(c, has(Car.CAR_ID)),
                c -> retrieve(c, equal(Car.MANUFACTURER, "Ford")),
                c -> c.size(),
                c -> {
                    Iterator<Car> it = c.iterator();
                    int removed = 0;
                    while (it.hasNext()) {
                        if (it.next().carId() % 2 == 0) {
                            it.remove();
                            removed++;
                        }
                    }
                    return removed;
                },
                c -> contents(c),
                c -> { c.clear(); return c.size(); },
                c -> c.isEmpty(),
                c -> c.addAll(cars(0, 50)),
                c -> contents(c));
        for (int i = 0; i < steps.size(); i++) {
            Object expected = steps.get(i).apply(heap);
            Object actual = steps.get(i).apply(duck);
            assertEquals(expected, actual, kind + ": step " + i + " differs from on-heap");
            assertEquals(contents(heap), contents(duck), kind + ": contents differ after step " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(CollectionKind.class)
    void replacingAnObjectWithTheSameKeyKeepsTheNewOne(CollectionKind kind) {
        persistence = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
        IndexedCollection<Car> duck = kind.make.apply(persistence);
        duck.addAll(cars(0, 5));
        Car old = Car.of(2);
        Car replacement = old.withPrice(99_999);
        duck.update(List.of(old), List.of(replacement));
        assertEquals(Set.of(replacement), retrieve(duck, equal(Car.CAR_ID, 2)));
        assertTrue(duck.contains(replacement));
        assertFalse(duck.contains(old));
        assertEquals(5, duck.size());
    }

    @ParameterizedTest
    @EnumSource(CollectionKind.class)
    void iteratorRemoveOfTheLastObjectWorks(CollectionKind kind) {
        persistence = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
        IndexedCollection<Car> duck = kind.make.apply(persistence);
        duck.addAll(cars(0, 3));
        Iterator<Car> it = duck.iterator();
        Collection<Car> seen = new ArrayList<>();
        while (it.hasNext()) {
            seen.add(it.next());
        }
        it.remove();
        assertEquals(3, seen.size());
        assertEquals(2, duck.size());
    }
}
