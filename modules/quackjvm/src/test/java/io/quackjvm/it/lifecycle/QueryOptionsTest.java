package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the engine uses CQEngine's {@link QueryOptions}: what it keeps in one that the application may share between
 * threads is read under the same lock it is written under, and the options handed to attribute code are never
 * one instance shared by every collection.
 */
class QueryOptionsTest {

    /** Options that record every read, without their lock, of an entry that was written under it. */
    private static final class CheckedOptions extends QueryOptions {
        final Set<Object> writtenUnderLock = Collections.newSetFromMap(new IdentityHashMap<>());
        final List<Object> unlockedReads = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void put(Object key, Object value) {
            if (Thread.holdsLock(this)) {
                writtenUnderLock.add(key);
            }
            super.put(key, value);
        }

        @Override
        public Object get(Object key) {
            if (!Thread.holdsLock(this) && writtenUnderLock.contains(key)) {
                unlockedReads.add(key);
            }
            return super.get(key);
        }
    }

    @Test
    void entriesWrittenUnderTheOptionsLockAreReadUnderIt() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID)) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            CheckedOptions options = new CheckedOptions();
            cars.update(List.of(), Car.firstN(20), options);
            try (ResultSet<Car> rs = cars.retrieve(greaterThan(Car.CAR_ID, 5), options)) {
                assertEquals(14, rs.size());
            }
            assertTrue(!options.writtenUnderLock.isEmpty(), "The engine kept nothing in the options");
            assertEquals(List.of(), options.unlockedReads,
                    "An entry written under the QueryOptions' lock was read without it");
        }
    }

    /** An indexed attribute that records the options it is given. */
    private static SimpleAttribute<Car, String> recording(Set<QueryOptions> seen) {
        return new SimpleAttribute<>(Car.class, String.class, "maker") {
            @Override
            public String getValue(Car car, QueryOptions queryOptions) {
                seen.add(queryOptions);
                return car.manufacturer();
            }
        };
    }

    @Test
    void attributeCodeIsNeverHandedOptionsSharedByEveryCollection() {
        Set<QueryOptions> first = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        Set<QueryOptions> second = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        try (DuckDBPersistence<Car, Integer> a = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
             DuckDBPersistence<Car, Integer> b = DuckDBPersistence.onPrimaryKey(Car.CAR_ID)) {
            IndexedCollection<Car> one = new ConcurrentIndexedCollection<>(a);
            IndexedCollection<Car> two = new ConcurrentIndexedCollection<>(b);
            one.addIndex(DuckDBIndex.onAttribute(recording(first)));
            two.addIndex(DuckDBIndex.onAttribute(recording(second)));
            for (IndexedCollection<Car> cars : List.of(one, two)) {
                cars.addAll(Car.firstN(5));      // a small write
                cars.addAll(Car.firstN(100));    // a large one, through the Appender
            }
            Set<QueryOptions> shared = Collections.newSetFromMap(new IdentityHashMap<>());
            shared.addAll(first);
            shared.retainAll(second);
            assertTrue(!first.isEmpty() && !second.isEmpty(), "The attributes were never asked");
            assertEquals(Set.of(), shared, "Two collections handed their attribute code the same QueryOptions");
        }
    }
}
