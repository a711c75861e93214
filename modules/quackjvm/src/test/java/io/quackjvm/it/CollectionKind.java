package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.ObjectLockingIndexedCollection;
import com.googlecode.cqengine.TransactionalIndexedCollection;
import com.googlecode.cqengine.persistence.Persistence;

import java.util.function.Function;

/** CQEngine's three collection types, each made over a persistence of cars: the cases of a parameterized test. */
public enum CollectionKind {
    CONCURRENT(ConcurrentIndexedCollection::new),
    OBJECT_LOCKING(ObjectLockingIndexedCollection::new),
    TRANSACTIONAL(p -> new TransactionalIndexedCollection<>(Car.class, p));

    /** A collection of this type over the persistence. */
    public final Function<Persistence<Car, Integer>, IndexedCollection<Car>> make;

    CollectionKind(Function<Persistence<Car, Integer>, IndexedCollection<Car>> make) {
        this.make = make;
    }
}
