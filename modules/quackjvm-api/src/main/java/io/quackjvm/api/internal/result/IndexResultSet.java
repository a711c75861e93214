package io.quackjvm.api.internal.result;

import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.index.IndexTable;
import io.quackjvm.api.internal.query.SqlPredicate;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.ComparativeQuery;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.ArrayList;
import java.util.List;

/**
 * The result of a query answered by an attribute index table. Lazy: nothing runs until it is used, because
 * CQEngine calls {@code retrieve} on every candidate index and keeps one. Each use is one SQL statement:
 * iterating streams the matching objects ({@code _key IN (SELECT _key FROM index WHERE ...)}, a semi-join that
 * also returns an object with several matching values once); {@code size} is a count.
 */
public final class IndexResultSet<O, A> extends SqlResultSet<O> {

    /** The most rows of a covering index's answer read as a narrow one, at once (see openCursor). */
    static final int SMALL_RESULT = 1024;

    private final IndexTable<O, ?> index;

    public IndexResultSet(CollectionTable<O, A> table, IndexTable<O, ?> index, Query<O> query, QueryOptions options,
                          SqlPredicate predicate, int retrievalCost) {
        super(table, query, options, predicate, retrievalCost);
        this.index = index;
    }

    @Override
    CloseableIterator<O> openCursor() {
        if (index.covering()) {
            // The objects come from the index table itself: no join, so the cost follows the matching rows (after
            // optimize() the table is sorted by value and its zone maps skip the rest). An object with several
            // matching values has several rows there; it is returned once, as the semi-join does.
            String select = "SELECT " + (index.singleValued() ? "" : "DISTINCT ON (" + CollectionSchema.KEY + ") ")
                    + index.sqlCoveredColumns(null) + " FROM " + index.sqlName();
            String sql = select + where();
            // Most answers of such an index are narrow (that is what it is for): they are read at once through the
            // point reader, whose per-row cost for a few hundred rows is below the bulk reader's set-up (an Arrow
            // export costs about 0.7 ms). An answer past SMALL_RESULT rows is read again, streamed through the bulk
            // reader; each statement sees one consistent snapshot and nothing of the first is returned then.
            List<O> first = table.reads().queryAllCopies(options, sql + " LIMIT " + (SMALL_RESULT + 1), predicate.params(),
                    (o, row) -> o);
            if (first.size() <= SMALL_RESULT) {
                return table.statements().cursorOver(first);
            }
            return table.reads().queryCopies(options, sql, predicate.params(), true, (o, row) -> o);
        }
        String sql = "SELECT " + table.columns().sqlList() + " FROM " + table.schema().sqlName() + " WHERE " + CollectionSchema.KEY
                + " IN (SELECT " + CollectionSchema.KEY + " FROM " + index.sqlName() + where() + ")";
        return table.reads().query(options, sql, predicate.params(), true, (o, row) -> o);
    }

    @Override
    String countSql() {
        String count = index.singleValued() ? "count(*)" : "count(DISTINCT " + CollectionSchema.KEY + ")";
        return "SELECT " + count + " FROM " + index.sqlName() + where();
    }

    /**
     * Whether the collection holds {@code object} (an existence check by key) and it matches the query. A
     * comparative query (min, max) cannot be evaluated on one object, so its index row is looked up instead.
     */
    @Override
    public boolean contains(O object) {
        if (!(query instanceof ComparativeQuery)) {
            return super.contains(object);
        }
        if (!table.reads().contains(object, options)) {
            return false;
        }
        List<Object> params = new ArrayList<>(predicate.params());
        params.add(table.schema().keyType().encodeObject(table.schema().primaryKey().getValue(object, options)));
        String sql = "SELECT count(*) FROM (SELECT 1 FROM " + index.sqlName() + where()
                + (where().isEmpty() ? " WHERE " : " AND ") + CollectionSchema.KEY + " = ? LIMIT 1)";
        return table.statements().queryLong(options, sql, params) > 0;
    }

    @Override
    public boolean matches(O object) {
        return query instanceof ComparativeQuery ? contains(object) : super.matches(object);
    }

    /** The number of matching objects: a count, the same measure on-heap indexes give. */
    @Override
    public int getMergeCost() {
        return size();
    }
}
