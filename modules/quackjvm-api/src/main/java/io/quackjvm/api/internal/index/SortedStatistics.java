package io.quackjvm.api.internal.index;

import io.quackjvm.api.internal.query.IndexPredicates;
import io.quackjvm.api.internal.query.SqlPredicate;

import com.googlecode.cqengine.index.support.CloseableIterable;
import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.index.support.KeyStatistics;
import com.googlecode.cqengine.index.support.KeyValue;
import com.googlecode.cqengine.query.option.QueryOptions;

import io.quackjvm.api.spi.ValueType;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The one implementation of CQEngine's sorted-statistics overloads ({@code getDistinctKeys},
 * {@code getKeysAndValues}, {@code getStatisticsForDistinctKeys}, ascending and descending, whole and ranged) for
 * the DuckDB indexes: each overload becomes one of three queries a subclass answers in SQL, run lazily when the
 * iterable is iterated. The attribute index ({@link AttributeIndexQueries}) and the primary-key index
 * ({@link DuckDBIdentityIndex}) hand their overloads here. It runs no SQL itself and holds no state.
 *
 * @param <A> the type of the keys (attribute values or primary keys)
 * @param <O> the object type
 */
public abstract class SortedStatistics<A, O> {

    /** The distinct keys within the bounds ({@code null} for none), in key order. */
    protected abstract CloseableIterator<A> distinctKeys(A lower, boolean lowerInclusive, A upper,
                                                        boolean upperInclusive, boolean descending,
                                                        QueryOptions options);

    /** Every distinct key with the number of objects that have it, in key order. */
    protected abstract CloseableIterator<KeyStatistics<A>> statistics(boolean descending, QueryOptions options);

    /** Every (key, object) pair within the bounds ({@code null} for none), in key order. */
    protected abstract CloseableIterator<KeyValue<A, O>> keysAndValues(A lower, boolean lowerInclusive, A upper,
                                                                      boolean upperInclusive, boolean descending,
                                                                      QueryOptions options);

    /**
     * {@code " WHERE <lower> AND <upper>"} on {@code column} for the bounds that are set ({@code ""} for none),
     * their stored forms added to {@code params}.
     *
     * @throws IllegalArgumentException when a bound cannot be compared with the stored values
     */
    protected static <A> String range(ValueType<A> type, String column, A lower, boolean lowerInclusive, A upper,
                                      boolean upperInclusive, List<Object> params, String what) {
        List<String> parts = new ArrayList<>();
        Object[] bounds = {lower, upper};
        for (int i = 0; i < 2; i++) {
            Object bound = bounds[i];
            if (bound == null) {
                continue;
            }
            SqlPredicate p = i == 0 ? IndexPredicates.lower(type, column, bound, lowerInclusive)
                    : IndexPredicates.upper(type, column, bound, upperInclusive);
            if (p == null) {
                throw new IllegalArgumentException("A bound of type " + bound.getClass().getName() + " cannot be "
                        + "compared with " + what + " of type " + type.javaType().getName());
            }
            parts.add(p.sql());
            params.addAll(p.params());
        }
        return parts.isEmpty() ? "" : " WHERE " + String.join(" AND ", parts);
    }

    /** Iterates a list already read. */
    protected static <T> CloseableIterator<T> iterate(List<T> list) {
        Iterator<T> it = list.iterator();
        return new CloseableIterator<>() {
            @Override public boolean hasNext() { return it.hasNext(); }
            @Override public T next() { return it.next(); }
            @Override public void close() { }
        };
    }

    public final CloseableIterable<A> getDistinctKeys(QueryOptions options) {
        return () -> distinctKeys(null, true, null, true, false, options);
    }

    public final CloseableIterable<A> getDistinctKeys(A lower, boolean lowerInclusive, A upper, boolean upperInclusive,
                                                      QueryOptions options) {
        return () -> distinctKeys(lower, lowerInclusive, upper, upperInclusive, false, options);
    }

    public final CloseableIterable<A> getDistinctKeysDescending(QueryOptions options) {
        return () -> distinctKeys(null, true, null, true, true, options);
    }

    public final CloseableIterable<A> getDistinctKeysDescending(A lower, boolean lowerInclusive, A upper,
                                                                boolean upperInclusive, QueryOptions options) {
        return () -> distinctKeys(lower, lowerInclusive, upper, upperInclusive, true, options);
    }

    public final CloseableIterable<KeyStatistics<A>> getStatisticsForDistinctKeys(QueryOptions options) {
        return () -> statistics(false, options);
    }

    public final CloseableIterable<KeyStatistics<A>> getStatisticsForDistinctKeysDescending(QueryOptions options) {
        return () -> statistics(true, options);
    }

    public final CloseableIterable<KeyValue<A, O>> getKeysAndValues(QueryOptions options) {
        return () -> keysAndValues(null, true, null, true, false, options);
    }

    public final CloseableIterable<KeyValue<A, O>> getKeysAndValues(A lower, boolean lowerInclusive, A upper,
                                                                    boolean upperInclusive, QueryOptions options) {
        return () -> keysAndValues(lower, lowerInclusive, upper, upperInclusive, false, options);
    }

    public final CloseableIterable<KeyValue<A, O>> getKeysAndValuesDescending(QueryOptions options) {
        return () -> keysAndValues(null, true, null, true, true, options);
    }

    public final CloseableIterable<KeyValue<A, O>> getKeysAndValuesDescending(A lower, boolean lowerInclusive,
                                                                              A upper, boolean upperInclusive,
                                                                              QueryOptions options) {
        return () -> keysAndValues(lower, lowerInclusive, upper, upperInclusive, true, options);
    }
}
