package io.quackjvm.api.internal;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.In;
import com.googlecode.cqengine.resultset.ResultSet;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The result of a query on the primary key: lazy (nothing runs until it is used, because CQEngine calls
 * {@code retrieve} on every candidate index and keeps one), and one SQL statement per use.
 */
final class KeyQueryResultSet<O, A> extends ResultSet<O> {

    private final CollectionTable<O, A> table;
    private final Query<O> query;
    private final QueryOptions options;
    private final SqlPredicate predicate;
    private final int retrievalCost;
    private final List<CloseableIterator<O>> open = new ArrayList<>();
    private int size = -1;

    KeyQueryResultSet(CollectionTable<O, A> table, Query<O> query, QueryOptions options, SqlPredicate predicate,
                      int retrievalCost) {
        this.table = table;
        this.query = query;
        this.options = options;
        this.predicate = predicate;
        this.retrievalCost = retrievalCost;
    }

    private boolean isPointLookup() {
        return query instanceof Equal || query instanceof In;
    }

    @Override
    public Iterator<O> iterator() {
        CloseableIterator<O> cursor = table.objects(options, where(), predicate.params(), !isPointLookup());
        open.add(cursor);
        return cursor;
    }

    private String where() {
        return "TRUE".equals(predicate.sql()) ? "" : "WHERE " + predicate.sql();
    }

    @Override
    public boolean contains(O object) {
        return query.matches(object, options) && table.contains(object, options);
    }

    @Override
    public boolean matches(O object) {
        return query.matches(object, options);
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

    @Override
    public int size() {
        if (size < 0) {
            long n = table.queryLong(options, "SELECT count(*) FROM " + table.sqlName() + " " + where(),
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
