package io.quackjvm.api.internal;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The result of a whole query tree translated by {@link QuerySql}: one statement fetching the objects whose keys
 * the translation selects ({@code _key IN (keys)}, so each object once), optionally ordered in SQL, filtered in
 * Java by the residual when the translation is not complete. Lazy: nothing runs until it is used. {@code size()}
 * is a count when the translation is complete, else the number of objects iteration yields. Closing closes every
 * cursor it opened.
 */
final class TranslatedResultSet<O> extends ResultSet<O> {

    private final CollectionTable<O, ?> table;
    private final Query<O> query;
    private final QueryOptions options;
    private final QuerySql.Translation<O> translation;
    private final String sql;
    private final Comparator<O> javaOrder;
    private final boolean byKeys;
    private final List<CloseableIterator<O>> open = new ArrayList<>();
    private int size = -1;

    /**
     * How a query is answered.
     *
     * @param translation the query in SQL
     * @param sql         the statement fetching the objects (layout columns first), with the translation's parameters
     * @param javaOrder   the order to sort the objects in after the statement, or {@code null} (none, or in SQL)
     * @param byKeys      whether {@code sql} is only the objects of the translation's keys, in no order, so that a
     *                    small key set may be fetched by its keys instead ({@link CollectionTable#fewObjects})
     */
    record Plan<O>(QuerySql.Translation<O> translation, String sql, Comparator<O> javaOrder, boolean byKeys) {
    }

    /**
     * Up to this many matching keys, the objects are fetched by their keys (two statements); beyond, by one
     * statement that semi-joins the object table with the key set.
     */
    static final int FEW_KEYS = 256;

    TranslatedResultSet(CollectionTable<O, ?> table, Query<O> query, QueryOptions options, Plan<O> plan) {
        this.table = table;
        this.query = query;
        this.options = options;
        this.translation = plan.translation();
        this.sql = plan.sql();
        this.javaOrder = plan.javaOrder();
        this.byKeys = plan.byKeys();
    }

    @Override
    public Iterator<O> iterator() {
        List<O> few = byKeys ? table.fewObjects(options, translation.keysSql(), translation.params(), FEW_KEYS) : null;
        CloseableIterator<O> cursor;
        if (few != null) {
            cursor = new CollectionStatements.ListCursor<>(few);
        } else {
            cursor = table.query(options, sql, translation.params(), true, (o, row) -> o);
            open.add(cursor);
        }
        Query<O> residual = translation.residual();
        Iterator<O> matching = residual == null ? cursor : new Filtered<>(cursor, residual, options);
        if (javaOrder == null) {
            return matching;
        }
        List<O> all = new ArrayList<>();
        try {
            matching.forEachRemaining(all::add);
        } finally {
            cursor.close();
        }
        all.sort(javaOrder);
        return all.iterator();
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

    /** Below every index: the whole tree is answered by one statement. */
    @Override
    public int getRetrievalCost() {
        return 10;
    }

    @Override
    public int getMergeCost() {
        return size();
    }

    @Override
    public int size() {
        if (size < 0) {
            if (translation.complete()) {
                size = (int) Math.min(Integer.MAX_VALUE, table.queryLong(options, "SELECT count(*) FROM "
                        + table.sqlName() + " WHERE " + CollectionSchema.KEY + " IN (" + translation.keysSql() + ")",
                        translation.params()));
            } else {
                int n = 0;
                try (CloseableIterator<O> cursor = table.query(options, sql, translation.params(), true,
                        (o, row) -> o)) {
                    Iterator<O> it = new Filtered<>(cursor, translation.residual(), options);
                    while (it.hasNext()) {
                        it.next();
                        n++;
                    }
                }
                size = n;
            }
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

    /** The objects of a cursor that match the residual query. */
    private static final class Filtered<O> implements Iterator<O> {
        final CloseableIterator<O> cursor;
        private final Query<O> residual;
        private final QueryOptions options;
        private O next;

        Filtered(CloseableIterator<O> cursor, Query<O> residual, QueryOptions options) {
            this.cursor = cursor;
            this.residual = residual;
            this.options = options;
        }

        @Override
        public boolean hasNext() {
            while (next == null && cursor.hasNext()) {
                O o = cursor.next();
                if (residual.matches(o, options)) {
                    next = o;
                }
            }
            return next != null;
        }

        @Override
        public O next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            O o = next;
            next = null;
            return o;
        }
    }
}
