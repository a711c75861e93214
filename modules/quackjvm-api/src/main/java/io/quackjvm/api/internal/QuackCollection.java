package io.quackjvm.api.internal;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.persistence.Persistence;

/**
 * The {@link ConcurrentIndexedCollection} that {@code DuckDBDatabase.collection(pk).build()} returns: a collection
 * of a shared database, which knows its {@link CollectionTable} so that queries can be answered by DuckDB as a
 * whole.
 */
public class QuackCollection<O> extends ConcurrentIndexedCollection<O> {

    private final CollectionTable<O, ?> table;

    public <A extends Comparable<A>> QuackCollection(Persistence<O, A> persistence, CollectionTable<O, A> table) {
        super(persistence);
        this.table = table;
    }

    /** The collection's engine. */
    public CollectionTable<O, ?> table() {
        return table;
    }
}
