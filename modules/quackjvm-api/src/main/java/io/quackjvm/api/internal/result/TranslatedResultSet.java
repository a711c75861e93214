package io.quackjvm.api.internal.result;

import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionStatements;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.query.QuerySql;
import io.quackjvm.api.internal.query.SqlPredicate;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The result of a whole query tree translated by {@link QuerySql}: the objects whose keys the translation selects
 * (each object once), fetched by their keys when few match ({@link CollectionTable#fewObjects}) or else by one
 * statement ({@code _key IN (keys)}), optionally ordered in SQL, filtered in Java by the residual when the
 * translation is not complete. Lazy: nothing runs until it is used. {@code size()} is a count when the
 * translation is complete, else the number of objects iteration yields. Closing closes every cursor it opened.
 */
public final class TranslatedResultSet<O> extends SqlResultSet<O> {

    private final QuerySql.Translation<O> translation;
    private final String sql;
    private final Comparator<O> javaOrder;
    private final boolean byKeys;

    /**
     * How a query is answered.
     *
     * @param translation the query in SQL
     * @param sql         the statement fetching the objects (layout columns first), with the translation's parameters
     * @param javaOrder   the order to sort the objects in after the statement, or {@code null} (none, or in SQL)
     * @param byKeys      whether {@code sql} is only the objects of the translation's keys, in no order, so that a
     *                    small key set may be fetched by its keys instead ({@link CollectionTable#fewObjects})
     */
    public record Plan<O>(QuerySql.Translation<O> translation, String sql, Comparator<O> javaOrder, boolean byKeys) {
    }

    /**
     * Up to this many matching keys, the objects are fetched by their keys (two statements); beyond, by one
     * statement that semi-joins the object table with the key set.
     */
    static final int FEW_KEYS = 256;

    /** Below every index: the whole tree is answered in SQL. */
    private static final int RETRIEVAL_COST = 10;

    public TranslatedResultSet(CollectionTable<O, ?> table, Query<O> query, QueryOptions options, Plan<O> plan) {
        super(table, query, options, new SqlPredicate(plan.translation().keysSql(), plan.translation().params()),
                RETRIEVAL_COST);
        this.translation = plan.translation();
        this.sql = plan.sql();
        this.javaOrder = plan.javaOrder();
        this.byKeys = plan.byKeys();
    }

    @Override
    CloseableIterator<O> openCursor() {
        List<O> few = byKeys ? table.reads().fewObjects(options, translation.keysSql(), translation.params(), FEW_KEYS) : null;
        CloseableIterator<O> cursor = few != null ? new CollectionStatements.ListCursor<>(few)
                : table.reads().query(options, sql, translation.params(), true, (o, row) -> o);
        Query<O> residual = translation.residual();
        CloseableIterator<O> matching = residual == null ? cursor : new Filtered<>(cursor, residual, options);
        if (javaOrder == null) {
            return matching;
        }
        List<O> all = new ArrayList<>();
        try {
            matching.forEachRemaining(all::add);
        } finally {
            matching.close();
        }
        all.sort(javaOrder);
        return new CollectionStatements.ListCursor<>(all);
    }

    @Override
    String countSql() {
        // The key set alone: every key in it is a stored object's (the object table and the attached index tables
        // change in the same transactions), and counting its distinct keys (a union or a multi-valued index may
        // repeat one) reads the matches only, where a semi-join with the object table scans its key column.
        return "SELECT count(DISTINCT " + CollectionSchema.KEY + ") FROM (" + translation.keysSql() + ")";
    }

    /** A count of the key set when the translation is complete, else the objects the residual lets through. */
    @Override
    long count() {
        if (translation.complete()) {
            return super.count();
        }
        long n = 0;
        try (CloseableIterator<O> cursor = new Filtered<>(table.reads().query(options, sql, translation.params(), true,
                (o, row) -> o), translation.residual(), options)) {
            while (cursor.hasNext()) {
                cursor.next();
                n++;
            }
        }
        return n;
    }

    @Override
    public int getMergeCost() {
        return size();
    }

    /** The objects of a cursor that match the residual query. */
    private static final class Filtered<O> implements CloseableIterator<O> {
        private final CloseableIterator<O> cursor;
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

        @Override
        public void close() {
            cursor.close();
        }
    }
}
