package io.quackjvm.api.internal.result;

import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.query.SqlPredicate;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A CQEngine result answered by SQL. Lazy: nothing runs until it is used, because CQEngine calls
 * {@code retrieve} on every candidate index and keeps one. Each use is one SQL statement: iterating streams the
 * matching objects, {@link #size()} is a count (run once). Closing closes every cursor it opened.
 */
abstract class SqlResultSet<O> extends ResultSet<O> {

    final CollectionTable<O, ?> table;
    final Query<O> query;
    final QueryOptions options;
    final SqlPredicate predicate;
    private final int retrievalCost;
    /** The cursors this result opened: the first in a field (a lookup opens one), any further ones in a list. */
    private CloseableIterator<O> first;
    private List<CloseableIterator<O>> more;
    private int size = -1;

    SqlResultSet(CollectionTable<O, ?> table, Query<O> query, QueryOptions options, SqlPredicate predicate,
                 int retrievalCost) {
        this.table = table;
        this.query = query;
        this.options = options;
        this.predicate = predicate;
        this.retrievalCost = retrievalCost;
    }

    /** {@code " WHERE <predicate>"}, or nothing for a predicate that matches every row ({@code has}). */
    final String where() {
        return "TRUE".equals(predicate.sql()) ? "" : " WHERE " + predicate.sql();
    }

    /** Opens a cursor over the matching objects (one statement). */
    abstract CloseableIterator<O> openCursor();

    /** The statement that counts the matching objects, with {@link #predicate}'s parameters. */
    abstract String countSql();

    @Override
    public final Iterator<O> iterator() {
        CloseableIterator<O> cursor = openCursor();
        if (first == null) {
            first = cursor;
        } else {
            if (more == null) {
                more = new ArrayList<>();
            }
            more.add(cursor);
        }
        return cursor;
    }

    @Override
    public boolean contains(O object) {
        return query.matches(object, options) && table.reads().contains(object, options);
    }

    @Override
    public boolean matches(O object) {
        return query.matches(object, options);
    }

    @Override
    public final Query<O> getQuery() {
        return query;
    }

    @Override
    public final QueryOptions getQueryOptions() {
        return options;
    }

    @Override
    public final int getRetrievalCost() {
        return retrievalCost;
    }

    /** The number of matching objects; {@link #countSql()} unless a subclass knows better. */
    long count() {
        return table.statements().queryLong(options, countSql(), predicate.params());
    }

    @Override
    public final int size() {
        if (size < 0) {
            size = (int) Math.min(Integer.MAX_VALUE, count());
        }
        return size;
    }

    @Override
    public final void close() {
        CloseableIterator<O> f = first;
        first = null;
        if (f != null) {
            f.close();
        }
        if (more != null) {
            for (CloseableIterator<O> cursor : more) {
                cursor.close();
            }
            more.clear();
        }
    }
}
