package io.quackjvm.api.internal.collection;

import com.googlecode.cqengine.index.sqlite.SQLitePersistence;
import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.persistence.support.sqlite.SQLiteObjectStore;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The CQEngine object store of a DuckDB collection. It extends {@link SQLiteObjectStore} because CQEngine 3.6.0
 * registers the primary-key index only for that type; every method goes to the {@link CollectionTable}.
 */
public final class DuckDBObjectStore<O, A extends Comparable<A>> extends SQLiteObjectStore<O, A> {

    private final CollectionTable<O, A> table;

    public DuckDBObjectStore(SQLitePersistence<O, A> persistence, CollectionTable<O, A> table) {
        super(persistence);
        this.table = table;
    }

    /** The object table; attribute indexes attach their tables to it. */
    public CollectionTable<O, A> table() {
        return table;
    }

    @Override
    public int size(QueryOptions queryOptions) {
        return table.reads().size(queryOptions);
    }

    @Override
    public boolean contains(Object o, QueryOptions queryOptions) {
        return table.reads().contains(o, queryOptions);
    }

    @Override
    public CloseableIterator<O> iterator(QueryOptions queryOptions) {
        return table.reads().iterator(queryOptions);
    }

    @Override
    public boolean isEmpty(QueryOptions queryOptions) {
        return table.reads().isEmpty(queryOptions);
    }

    @Override
    public boolean add(O object, QueryOptions queryOptions) {
        return table.writes().addOne(object, queryOptions);
    }

    @Override
    public boolean remove(Object o, QueryOptions queryOptions) {
        return table.writes().removeAll(o == null ? List.of() : List.of(o), queryOptions, false);
    }

    @Override
    public boolean containsAll(Collection<?> c, QueryOptions queryOptions) {
        for (Object o : c) {
            if (!table.reads().contains(o, queryOptions)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean addAll(Collection<? extends O> c, QueryOptions queryOptions) {
        return table.writes().addAll(c, queryOptions);
    }

    @Override
    public boolean retainAll(Collection<?> c, QueryOptions queryOptions) {
        Set<?> keep = c instanceof Set<?> s ? s : new java.util.HashSet<>(c);
        List<O> doomed = new ArrayList<>();
        try (CloseableIterator<O> it = iterator(queryOptions)) {
            while (it.hasNext()) {
                O o = it.next();
                if (!keep.contains(o)) {
                    doomed.add(o);
                }
            }
        }
        return table.writes().removeAll(doomed, queryOptions, false);
    }

    @Override
    public boolean removeAll(Collection<?> c, QueryOptions queryOptions) {
        return table.writes().removeAll(c, queryOptions, true);
    }

    @Override
    public void clear(QueryOptions queryOptions) {
        table.writes().clear(queryOptions);
    }
}
