package io.quackjvm.api.internal.index;

import io.quackjvm.api.internal.collection.CollectionReads;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.query.IndexPredicates;
import io.quackjvm.api.internal.query.SqlPredicate;
import io.quackjvm.api.internal.result.IndexResultSet;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.index.support.KeyStatistics;
import com.googlecode.cqengine.index.support.KeyValue;
import com.googlecode.cqengine.index.support.KeyValueMaterialized;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.comparative.Max;
import com.googlecode.cqengine.query.comparative.Min;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.Has;
import com.googlecode.cqengine.query.simple.In;
import com.googlecode.cqengine.query.simple.StringContains;
import com.googlecode.cqengine.query.simple.StringEndsWith;
import com.googlecode.cqengine.query.simple.StringIsContainedIn;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.spi.IndexTableDefinition;
import io.quackjvm.api.spi.ValueType;

import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of one attached attribute index: which CQEngine queries its table answers, the lazy result of a
 * retrieval with its cost, counts, and the sorted statistics CQEngine's ordering and metadata engine ask for.
 * {@code io.quackjvm.api.DuckDBIndex} is the CQEngine adapter in front of it. It neither creates nor fills the
 * index table ({@link CollectionIndexes} does) and never writes. Immutable and thread-safe.
 *
 * @param <O> the object type
 * @param <A> the attribute type
 */
public final class AttributeIndexQueries<O, A> extends SortedStatistics<A, O> {

    /*
     * Retrieval costs: behind CQEngine's on-heap indexes on the same attribute (unique 25, hash 30, navigable 40,
     * radix 50-53), which answer without a database round trip, and far ahead of the fallback scan. Point queries
     * rank first (at the strategy's IndexStrategyProvider.pointRetrievalCost(), 60 by default), then ranges, then
     * the queries that must scan every value of the table.
     */
    static final int RANGE_COST = 65;
    static final int SCAN_COST = 70;

    private static final String VALUE = IndexTableDefinition.VALUE_COLUMN;

    private final CollectionTable<O, ?> table;
    private final IndexTable<O, A> index;
    private final ValueType<A> valueType;

    public AttributeIndexQueries(CollectionTable<O, ?> table, IndexTable<O, A> index) {
        this.table = table;
        this.index = index;
        this.valueType = index.valueType();
    }

    /** Whether the query can be answered in SQL. */
    public boolean supports(Query<O> query) {
        return predicate(query) != null;
    }

    /** The query as a predicate on the value column, or {@code null} when DuckDB cannot answer it. */
    private SqlPredicate predicate(Query<O> query) {
        SqlPredicate p = IndexPredicates.translate(query, valueType, VALUE);
        return p != null ? p : extremum(query);
    }

    /**
     * {@code min}/{@code max}: the objects with a value that compares equal to the smallest or largest. The stored
     * forms are equal exactly when the values compare equal, except for BigDecimal ({@code 2.0} and {@code 2.00}
     * compare equal but are stored apart), which is left to CQEngine.
     */
    private SqlPredicate extremum(Query<O> query) {
        boolean max = query instanceof Max<?, ?> m && m.getAttribute().equals(index.attribute());
        boolean min = query instanceof Min<?, ?> m && m.getAttribute().equals(index.attribute());
        if ((!max && !min) || valueType.javaType() == java.math.BigDecimal.class) {
            return null;
        }
        return new SqlPredicate(VALUE + " = (SELECT " + (max ? "max" : "min") + "(" + VALUE + ") FROM "
                + index.sqlName() + ")", List.of());
    }

    /** The lazy result of a query that {@link #supports} is true for. */
    public ResultSet<O> retrieve(Query<O> query, QueryOptions options) {
        SqlPredicate predicate = predicate(query);
        if (predicate == null) {
            throw new IllegalArgumentException("DuckDBIndex on '" + index.attribute().getAttributeName()
                    + "' cannot answer " + query + "; supportsQuery is false for it");
        }
        return new IndexResultSet<>(table, index, query, options, predicate, costOf(query));
    }

    private int costOf(Query<O> query) {
        if (query instanceof Equal || query instanceof In) {
            return index.strategy().pointRetrievalCost();
        }
        if (query instanceof Has || query instanceof StringEndsWith || query instanceof StringContains
                || query instanceof StringIsContainedIn) {
            return SCAN_COST;
        }
        return RANGE_COST;
    }

    /** How many objects have a value equal to {@code key}. */
    public int countForKey(A key, QueryOptions options) {
        return (int) table.statements().queryLong(options, "SELECT count(*) FROM " + index.sqlName() + " WHERE " + VALUE
                + " = ?", List.of(valueType.encode(key)));
    }

    /** How many distinct values the index holds. */
    public int countOfDistinctKeys(QueryOptions options) {
        return (int) table.statements().queryLong(options, "SELECT count(DISTINCT " + VALUE + ") FROM " + index.sqlName(),
                List.of());
    }

    private String range(A lower, boolean lowerInclusive, A upper, boolean upperInclusive, List<Object> params) {
        return range(valueType, "i." + VALUE, lower, lowerInclusive, upper, upperInclusive, params,
                "attribute '" + index.attribute().getAttributeName() + "'");
    }

    @Override
    protected CloseableIterator<A> distinctKeys(A lower, boolean lowerInclusive, A upper, boolean upperInclusive,
                                               boolean descending, QueryOptions options) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT DISTINCT i.value FROM " + index.sqlName() + " i"
                + range(lower, lowerInclusive, upper, upperInclusive, params)
                + " ORDER BY i.value" + (descending ? " DESC" : "");
        return iterate(table.statements().queryList(options, sql, params, rs -> valueType.decode(rs.getObject(1))));
    }

    @Override
    protected CloseableIterator<KeyStatistics<A>> statistics(boolean descending, QueryOptions options) {
        String sql = "SELECT i.value, count(*) FROM " + index.sqlName() + " i GROUP BY i.value ORDER BY i.value"
                + (descending ? " DESC" : "");
        return iterate(table.statements().queryList(options, sql, List.of(),
                rs -> new KeyStatistics<>(valueType.decode(rs.getObject(1)), (int) rs.getLong(2))));
    }

    @Override
    protected CloseableIterator<KeyValue<A, O>> keysAndValues(A lower, boolean lowerInclusive, A upper,
                                                             boolean upperInclusive, boolean descending,
                                                             QueryOptions options) {
        List<Object> params = new ArrayList<>();
        String from = index.covering() ? index.sqlCoveredColumns("i") + ", i.value FROM " + index.sqlName() + " i"
                : table.columns().qualified("o") + ", i.value FROM " + index.sqlName() + " i JOIN " + table.schema().sqlName()
                + " o ON o._key = i._key";
        String sql = "SELECT " + from
                + range(lower, lowerInclusive, upper, upperInclusive, params)
                + " ORDER BY i.value" + (descending ? " DESC" : "");
        int valueColumn = index.covering() ? index.coveredColumns().size() : table.columns().count();
        CollectionReads.RowMapper<O, KeyValue<A, O>> pair =
                (o, row) -> new KeyValueMaterialized<>(valueType.decode(row.getObject(valueColumn)), o);
        return index.covering() ? table.reads().queryCopies(options, sql, params, true, pair)
                : table.reads().query(options, sql, params, true, pair);
    }
}
