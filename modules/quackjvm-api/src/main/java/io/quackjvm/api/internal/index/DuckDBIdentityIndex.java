package io.quackjvm.api.internal.index;

import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.query.IndexPredicates;
import io.quackjvm.api.internal.query.SqlPredicate;
import io.quackjvm.api.internal.result.KeyQueryResultSet;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.index.Index;
import com.googlecode.cqengine.index.sqlite.SQLiteIdentityIndex;
import com.googlecode.cqengine.index.support.CloseableIterable;
import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.index.support.KeyStatistics;
import com.googlecode.cqengine.index.support.KeyValue;
import com.googlecode.cqengine.index.support.KeyValueMaterialized;
import com.googlecode.cqengine.persistence.support.ObjectSet;
import com.googlecode.cqengine.persistence.support.ObjectStore;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.spi.ValueType;

import java.util.ArrayList;
import java.util.List;

/**
 * The primary-key index of a DuckDB collection: queries on the key become SQL on the object table's key column.
 *
 * <p>It extends CQEngine's {@link SQLiteIdentityIndex} only because CQEngine 3.6.0 registers a persistence's
 * primary-key index with its query engine solely for that type; every method is overridden, so none of the
 * SQLite code runs. Writes reach the object table through the object store, so the engine's calls to
 * {@link #addAll}, {@link #removeAll} and {@link #clear} have nothing left to do.
 */
public final class DuckDBIdentityIndex<A extends Comparable<A>, O> extends SQLiteIdentityIndex<A, O> {

    /** On-heap unique and hash indexes (25, 30) stay ahead; DuckDB attribute indexes and the fallback behind. */
    static final int POINT_COST = 35;
    static final int RANGE_COST = 45;

    /** The condition of a key equality, as {@link IndexPredicates#translate} writes it. */
    private static final String KEY_EQUALS = CollectionSchema.KEY + " = ?";

    private final CollectionTable<O, A> table;
    private final KeyStatisticsQueries sorted = new KeyStatisticsQueries();

    public DuckDBIdentityIndex(CollectionTable<O, A> table) {
        super(standIn(table.schema().primaryKey()));
        this.table = table;
    }

    /**
     * The superclass constructor builds a CQEngine serializer for its attribute's object class, which on the
     * module path would make cqengine reflect into the user's {@code @PersistenceConfig} serializer. Nothing of the
     * superclass is used (every method is overridden), so it is given an attribute over {@code Object} instead.
     */
    @SuppressWarnings("unchecked")
    private static <O, A extends Comparable<A>> SimpleAttribute<O, A> standIn(SimpleAttribute<O, A> primaryKey) {
        SimpleAttribute<Object, A> standIn = new SimpleAttribute<>(Object.class, primaryKey.getAttributeType(),
                primaryKey.getAttributeName()) {
            @Override
            public A getValue(Object object, QueryOptions queryOptions) {
                throw new UnsupportedOperationException("stand-in attribute");
            }
        };
        return (SimpleAttribute<O, A>) (SimpleAttribute<?, A>) standIn;
    }

    @Override
    public Attribute<O, A> getAttribute() {
        return table.schema().primaryKey();
    }

    @Override
    public boolean isMutable() {
        return true;
    }

    /**
     * The query on the key column, its values bound in the key's stored form (see {@link KeyType}), or
     * {@code null} when DuckDB cannot answer it with Java's semantics.
     */
    private SqlPredicate translate(Query<O> query) {
        if (query.getClass() == Equal.class) {
            // the lookup by key, on every retrieve: what IndexPredicates.translate makes, without its dispatch
            // and with the condition's text made once
            Object v = ((Equal<?, ?>) query).getValue();
            ValueType<A> type = table.schema().keyType().valueType();
            return type.javaType().isInstance(v)
                    ? new SqlPredicate(KEY_EQUALS, List.of(type.encode(type.javaType().cast(v)))) : null;
        }
        return IndexPredicates.translate(query, table.schema().keyType().valueType(), CollectionSchema.KEY);
    }

    @Override
    public boolean supportsQuery(Query<O> query, QueryOptions queryOptions) {
        if (query.getClass() == Equal.class) {
            return table.schema().keyType().valueType().javaType().isInstance(((Equal<?, ?>) query).getValue());
        }
        return translate(query) != null;
    }

    @Override
    public boolean isQuantized() {
        return false;
    }

    @Override
    public Index<O> getEffectiveIndex() {
        return this;
    }

    @Override
    public ResultSet<O> retrieve(Query<O> query, QueryOptions queryOptions) {
        SqlPredicate predicate = translate(query);
        if (predicate == null) {
            throw new IllegalArgumentException("Unsupported query on the primary key: " + query);
        }
        boolean point = query instanceof Equal || query instanceof com.googlecode.cqengine.query.simple.In;
        return new KeyQueryResultSet<>(table, query, queryOptions, predicate, point ? POINT_COST : RANGE_COST);
    }

    @Override
    public boolean addAll(ObjectSet<O> objects, QueryOptions queryOptions) {
        return false;
    }

    @Override
    public boolean removeAll(ObjectSet<O> objects, QueryOptions queryOptions) {
        return false;
    }

    @Override
    public void clear(QueryOptions queryOptions) {
        // the object store clears the table
    }

    @Override
    public void init(ObjectStore<O> objectStore, QueryOptions queryOptions) {
        // the table is created when the persistence is built
    }

    @Override
    public void destroy(QueryOptions queryOptions) {
        // the primary key cannot be dropped from its own table
    }

    // ------------------------------------------------------------ sorted statistics, all from SQL

    /** The primary key's sorted statistics: every key is distinct, so each has a count of one. */
    private final class KeyStatisticsQueries extends SortedStatistics<A, O> {

        private String range(A lower, boolean lowerInclusive, A upper, boolean upperInclusive, List<Object> params) {
            return range(table.schema().keyType().valueType(), CollectionSchema.KEY, lower, lowerInclusive, upper,
                    upperInclusive, params, "primary key '" + table.schema().primaryKey().getAttributeName() + "'");
        }

        /** Streams the keys in order; nothing is held in a list. */
        @Override
        protected CloseableIterator<A> distinctKeys(A lower, boolean lowerInclusive, A upper, boolean upperInclusive,
                                                   boolean descending, QueryOptions options) {
            List<Object> params = new ArrayList<>();
            String sql = "SELECT " + CollectionSchema.KEY + " FROM " + table.schema().sqlName()
                    + range(lower, lowerInclusive, upper, upperInclusive, params)
                    + " ORDER BY " + CollectionSchema.KEY + (descending ? " DESC" : "");
            return table.reads().keys(options, sql, params);
        }

        @Override
        protected CloseableIterator<KeyStatistics<A>> statistics(boolean descending, QueryOptions options) {
            CloseableIterator<A> it = distinctKeys(null, true, null, true, descending, options);
            return new CloseableIterator<>() {
                @Override public boolean hasNext() { return it.hasNext(); }
                @Override public KeyStatistics<A> next() { return new KeyStatistics<>(it.next(), 1); }
                @Override public void close() { it.close(); }
            };
        }

        @Override
        protected CloseableIterator<KeyValue<A, O>> keysAndValues(A lower, boolean lowerInclusive, A upper,
                                                                 boolean upperInclusive, boolean descending,
                                                                 QueryOptions options) {
            List<Object> params = new ArrayList<>();
            String tail = range(lower, lowerInclusive, upper, upperInclusive, params).trim()
                    + " ORDER BY " + CollectionSchema.KEY + (descending ? " DESC" : "");
            CloseableIterator<O> objects = table.reads().objects(options, tail.trim(), params, true);
            return new CloseableIterator<>() {
                @Override public boolean hasNext() { return objects.hasNext(); }
                @Override public KeyValue<A, O> next() {
                    O o = objects.next();
                    return new KeyValueMaterialized<>(table.schema().primaryKey().getValue(o, options), o);
                }
                @Override public void close() { objects.close(); }
            };
        }
    }

    @Override
    public CloseableIterable<A> getDistinctKeys(QueryOptions queryOptions) {
        return sorted.getDistinctKeys(queryOptions);
    }

    @Override
    public CloseableIterable<A> getDistinctKeys(A lowerBound, boolean lowerInclusive, A upperBound,
                                                boolean upperInclusive, QueryOptions queryOptions) {
        return sorted.getDistinctKeys(lowerBound, lowerInclusive, upperBound, upperInclusive, queryOptions);
    }

    @Override
    public CloseableIterable<A> getDistinctKeysDescending(QueryOptions queryOptions) {
        return sorted.getDistinctKeysDescending(queryOptions);
    }

    @Override
    public CloseableIterable<A> getDistinctKeysDescending(A lowerBound, boolean lowerInclusive, A upperBound,
                                                          boolean upperInclusive, QueryOptions queryOptions) {
        return sorted.getDistinctKeysDescending(lowerBound, lowerInclusive, upperBound, upperInclusive,
                queryOptions);
    }

    @Override
    public Integer getCountForKey(A key, QueryOptions queryOptions) {
        return table.reads().get(key, queryOptions) == null ? 0 : 1;
    }

    @Override
    public Integer getCountOfDistinctKeys(QueryOptions queryOptions) {
        return table.reads().size(queryOptions);
    }

    @Override
    public CloseableIterable<KeyStatistics<A>> getStatisticsForDistinctKeys(QueryOptions queryOptions) {
        return sorted.getStatisticsForDistinctKeys(queryOptions);
    }

    @Override
    public CloseableIterable<KeyStatistics<A>> getStatisticsForDistinctKeysDescending(QueryOptions queryOptions) {
        return sorted.getStatisticsForDistinctKeysDescending(queryOptions);
    }

    @Override
    public CloseableIterable<KeyValue<A, O>> getKeysAndValues(QueryOptions queryOptions) {
        return sorted.getKeysAndValues(queryOptions);
    }

    @Override
    public CloseableIterable<KeyValue<A, O>> getKeysAndValues(A lowerBound, boolean lowerInclusive, A upperBound,
                                                              boolean upperInclusive, QueryOptions queryOptions) {
        return sorted.getKeysAndValues(lowerBound, lowerInclusive, upperBound, upperInclusive, queryOptions);
    }

    @Override
    public CloseableIterable<KeyValue<A, O>> getKeysAndValuesDescending(QueryOptions queryOptions) {
        return sorted.getKeysAndValuesDescending(queryOptions);
    }

    @Override
    public CloseableIterable<KeyValue<A, O>> getKeysAndValuesDescending(A lowerBound, boolean lowerInclusive,
                                                                        A upperBound, boolean upperInclusive,
                                                                        QueryOptions queryOptions) {
        return sorted.getKeysAndValuesDescending(lowerBound, lowerInclusive, upperBound, upperInclusive,
                queryOptions);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DuckDBIdentityIndex<?, ?> other && other.table == table;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(table);
    }
}
