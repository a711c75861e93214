package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.ObjectLockingIndexedCollection;
import com.googlecode.cqengine.TransactionalIndexedCollection;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;

import java.util.function.Function;

/** CQEngine's three collection types, each made over a persistence of cars: the cases of a parameterized test. */
enum CollectionKind {
    CONCURRENT(ConcurrentIndexedCollection::new),
    OBJECT_LOCKING(ObjectLockingIndexedCollection::new),
    TRANSACTIONAL(p -> new TransactionalIndexedCollection<>(Car.class, p));

    /** A collection of this type over the persistence. */
    final Function<DuckDBPersistence<Car, Integer>, IndexedCollection<Car>> make;

    CollectionKind(Function<DuckDBPersistence<Car, Integer>, IndexedCollection<Car>> make) {
        this.make = make;
    }
}
