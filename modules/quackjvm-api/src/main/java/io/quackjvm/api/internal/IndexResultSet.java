package io.quackjvm.api.internal;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.ComparativeQuery;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The result of a query answered by an attribute index table. Lazy: nothing runs until it is used, because
 * CQEngine calls {@code retrieve} on every candidate index and keeps one. Each use is one SQL statement:
 * iterating streams the matching objects ({@code _key IN (SELECT _key FROM index WHERE ...)}, a semi-join that
 * also returns an object with several matching values once); {@code size} is a count.
 */
public final class IndexResultSet<O, A> extends ResultSet<O> {

    private final CollectionTable<O, A> table;
    private final IndexTable<O, ?> index;
    private final Query<O> query;
    private final QueryOptions options;
    private final SqlPredicate predicate;
    private final int retrievalCost;
    private final List<CloseableIterator<O>> open = new ArrayList<>();
    private int size = -1;

    public IndexResultSet(CollectionTable<O, A> table, IndexTable<O, ?> index, Query<O> query, QueryOptions options,
                          SqlPredicate predicate, int retrievalCost) {
        this.table = table;
        this.index = index;
        this.query = query;
        this.options = options;
        this.predicate = predicate;
        this.retrievalCost = retrievalCost;
    }

    private String where() {
        return "TRUE".equals(predicate.sql()) ? "" : " WHERE " + predicate.sql();
    }

    @Override
    public Iterator<O> iterator() {
        String sql = "SELECT " + table.sqlColumns() + " FROM " + table.sqlName() + " WHERE " + CollectionTable.KEY
                + " IN (SELECT " + CollectionTable.KEY + " FROM " + index.sqlName() + where() + ")";
        CloseableIterator<O> cursor = table.query(options, sql, predicate.params(), true, (o, row) -> o);
        open.add(cursor);
        return cursor;
    }

    /**
     * Whether the collection holds {@code object} (an existence check by key) and it matches the query. A
     * comparative query (min, max) cannot be evaluated on one object, so its index row is looked up instead.
     */
    @Override
    public boolean contains(O object) {
        if (!(query instanceof ComparativeQuery)) {
            return query.matches(object, options) && table.contains(object, options);
        }
        if (!table.contains(object, options)) {
            return false;
        }
        List<Object> params = new ArrayList<>(predicate.params());
        params.add(table.primaryKey().getValue(object, options));
        String sql = "SELECT count(*) FROM (SELECT 1 FROM " + index.sqlName() + where()
                + (where().isEmpty() ? " WHERE " : " AND ") + CollectionTable.KEY + " = ? LIMIT 1)";
        return table.queryLong(options, sql, params) > 0;
    }

    @Override
    public boolean matches(O object) {
        return query instanceof ComparativeQuery ? contains(object) : query.matches(object, options);
    }

    @Override
    public Query<O> getQuery() {
        return query;
    }

    @Override
    public QueryOptions getQueryOptions() {
        return options;
    }

    @Override
    public int getRetrievalCost() {
        return retrievalCost;
    }

    /** The number of matching objects: a count, the same measure on-heap indexes give. */
    @Override
    public int getMergeCost() {
        return size();
    }

    @Override
    public int size() {
        if (size < 0) {
            String count = index.singleValued() ? "count(*)" : "count(DISTINCT " + CollectionTable.KEY + ")";
            long n = table.queryLong(options, "SELECT " + count + " FROM " + index.sqlName() + where(),
                    predicate.params());
            size = (int) Math.min(Integer.MAX_VALUE, n);
        }
        return size;
    }

    @Override
    public void close() {
        for (CloseableIterator<O> cursor : open) {
            cursor.close();
        }
        open.clear();
    }
}
