package io.quackjvm.api.internal;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.In;

/** The result of a query on the primary key: SQL on the object table's key column. */
final class KeyQueryResultSet<O, A> extends SqlResultSet<O> {

    private final CollectionTable<O, A> keyed;

    KeyQueryResultSet(CollectionTable<O, A> table, Query<O> query, QueryOptions options, SqlPredicate predicate,
                      int retrievalCost) {
        super(table, query, options, predicate, retrievalCost);
        this.keyed = table;
    }

    private boolean isPointLookup() {
        return query instanceof Equal || query instanceof In;
    }

    @Override
    CloseableIterator<O> openCursor() {
        // A point lookup is small by construction: never worth an Arrow export.
        return keyed.objects(options, where().trim(), predicate.params(), !isPointLookup());
    }

    @Override
    String countSql() {
        return "SELECT count(*) FROM " + table.sqlName() + where();
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
