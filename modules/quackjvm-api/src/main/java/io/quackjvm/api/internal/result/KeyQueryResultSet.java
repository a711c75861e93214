package io.quackjvm.api.internal.result;

import io.quackjvm.api.internal.collection.CollectionStatements;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.collection.ObjectCache;
import io.quackjvm.api.internal.query.SqlPredicate;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.In;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of a query on the primary key: SQL on the object table's key column. With the object cache on, an
 * equality is a lookup through it (a hit runs no statement), and an {@code in} whose keys are all cached is
 * answered from it; other queries run their SQL, and an {@code in} fills the cache with what it reads.
 */
public final class KeyQueryResultSet<O, A> extends SqlResultSet<O> {

    private final CollectionTable<O, A> keyed;

    public KeyQueryResultSet(CollectionTable<O, A> table, Query<O> query, QueryOptions options, SqlPredicate predicate,
                      int retrievalCost) {
        super(table, query, options, predicate, retrievalCost);
        this.keyed = table;
    }

    private boolean isPointLookup() {
        return query instanceof Equal || query instanceof In;
    }

    /** Whether the object cache answers this query: a key equality outside a request that has written. */
    private boolean cachedEquality() {
        return query instanceof Equal && keyed.cache().enabled();
    }

    @SuppressWarnings("unchecked")
    private A equalKey() {
        return ((Equal<O, A>) query).getValue();
    }

    @Override
    CloseableIterator<O> openCursor() {
        if (cachedEquality()) {
            keyed.database().checkOpen();
            if (!keyed.statements().writing(options)) {
                // A hit opens nothing; a miss runs the very statement and cursor an uncached lookup runs, and
                // keeps what it reads (the stamp is taken before the statement starts).
                ObjectCache<A, O> cache = keyed.cache();
                A key = equalKey();
                O hit = cache.get(key);
                if (hit != null) {
                    return new OneObject<>(hit);
                }
                Map<A, Long> stamps = Map.of(key, cache.stamp(key));
                return filling(keyed.reads().lookups(options, where().trim(), predicate.params(), key), stamps, cache);
            }
        }
        if (query instanceof In && keyed.cache().enabled()) {
            CloseableIterator<O> fromCache = inFromCache();
            if (fromCache != null) {
                return fromCache;
            }
        }
        // A point lookup is small by construction: never worth an Arrow export.
        return isPointLookup() ? keyed.reads().lookups(options, where().trim(), predicate.params(),
                query instanceof Equal ? equalKey() : null)
                : keyed.reads().objects(options, where().trim(), predicate.params(), true);
    }

    /** The cursor of a cache hit: the one cached object, nothing to close. */
    private static final class OneObject<O> implements CloseableIterator<O> {
        private O next;

        OneObject(O object) {
            this.next = object;
        }

        @Override public boolean hasNext() { return next != null; }

        @Override public O next() {
            O o = next;
            if (o == null) {
                throw new java.util.NoSuchElementException();
            }
            next = null;
            return o;
        }

        @Override public void close() { }
    }

    /**
     * An {@code in} on the key with the cache on: every object from the cache when all are there, else the SQL's
     * cursor, filling the cache with the missing keys it reads; {@code null} inside a request that has written.
     */
    @SuppressWarnings("unchecked")
    private CloseableIterator<O> inFromCache() {
        ObjectCache<A, O> cache = keyed.cache();
        keyed.database().checkOpen();
        if (keyed.statements().writing(options)) {
            return null;
        }
        List<O> found = new ArrayList<>();
        Map<A, Long> stamps = null;
        for (Object v : ((In<O, A>) query).getValues()) {
            A key = (A) v;
            O hit = cache.get(key);
            if (hit != null) {
                found.add(hit);
                continue;
            }
            if (stamps == null) {
                stamps = new HashMap<>();
            }
            stamps.put(key, cache.stamp(key));
        }
        if (stamps == null) {
            return new CollectionStatements.ListCursor<>(found);
        }
        return filling(keyed.reads().lookups(options, where().trim(), predicate.params(), null), stamps, cache);
    }

    /** Hands out {@code cursor}'s objects, putting those whose stamp was taken before the statement. */
    private CloseableIterator<O> filling(CloseableIterator<O> cursor, Map<A, Long> stamps, ObjectCache<A, O> cache) {
        return new CloseableIterator<>() {
            @Override public boolean hasNext() { return cursor.hasNext(); }
            @Override public O next() {
                O o = cursor.next();
                A key = keyed.schema().primaryKey().getValue(o, options);
                Long stamp = stamps.get(key);
                if (stamp != null) {
                    cache.put(key, o, stamp);
                }
                return o;
            }
            @Override public void close() { cursor.close(); }
        };
    }

    @Override
    long count() {
        if (cachedEquality()) {
            return keyed.reads().get(equalKey(), options) == null ? 0 : 1;
        }
        if (isPointLookup()) {
            // a count of given keys is a lookup: it reads the primary key's index, and waits for no turn
            return table.statements().queryLong(options, countSql(), predicate.params(),
                    io.quackjvm.api.Operation.LOOKUP);
        }
        return super.count();
    }

    @Override
    String countSql() {
        return "SELECT count(*) FROM " + table.schema().sqlName() + where();
    }

    @Override
    public int getMergeCost() {
        if (query instanceof Equal) {
            return 1;
        }
        if (query instanceof In<?, ?> in) {
            return in.getValues().size();
        }
        return size();
    }
}
