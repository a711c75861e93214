package io.quackjvm.api.internal;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.ComparativeQuery;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.query.simple.Between;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.GreaterThan;
import com.googlecode.cqengine.query.simple.LessThan;

import java.util.ArrayList;
import java.util.List;

/**
 * The result of a query answered by an attribute index table. Lazy: nothing runs until it is used, because
 * CQEngine calls {@code retrieve} on every candidate index and keeps one. Each use is one SQL statement:
 * iterating streams the matching objects ({@code _key IN (SELECT _key FROM index WHERE ...)}, a semi-join that
 * also returns an object with several matching values once); {@code size} is a count.
 */
final class IndexResultSet<O, A> extends SqlResultSet<O> {

    /** The most rows a covering index's answer is read as a narrow one (see openCursor). */
    static final int SMALL_RESULT = 1024;

    private final IndexTable<O, ?> index;

    IndexResultSet(CollectionTable<O, A> table, IndexTable<O, ?> index, Query<O> query, QueryOptions options,
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
            // A range or an equality gets its bounds written into the SQL when they can be written exactly: DuckDB
            // then prunes the sorted table's row groups by them (see SqlPredicate.inlined).
            SqlPredicate p = literalBounds() ? predicate.inlined() : predicate;
            boolean oneShot = p != predicate;
            String sql = select + ("TRUE".equals(p.sql()) ? "" : " WHERE " + p.sql());
            // Most such answers are narrow: read them through JDBC rows at once (an Arrow export costs more to set up
            // than a few hundred rows cost to read), and only an answer past SMALL_RESULT rows again, through the
            // bulk reader. Each statement sees a consistent snapshot, and nothing of the first is returned then.
            List<O> first = table.queryAll(options, sql + " LIMIT " + (SMALL_RESULT + 1), p.params(), (o, row) -> o,
                    oneShot);
            if (first.size() <= SMALL_RESULT) {
                return new CollectionStatements.ListCursor<>(first);
            }
            return table.query(options, sql, p.params(), true, (o, row) -> o, oneShot);
        }
        String sql = "SELECT " + table.sqlColumns() + " FROM " + table.sqlName() + " WHERE " + CollectionSchema.KEY
                + " IN (SELECT " + CollectionSchema.KEY + " FROM " + index.sqlName() + where() + ")";
        return table.query(options, sql, predicate.params(), true, (o, row) -> o);
    }

    /** Whether the query is a comparison whose bounds a sorted covering table prunes by: equal or a range. */
    private boolean literalBounds() {
        return query instanceof Equal || query instanceof LessThan || query instanceof GreaterThan
                || query instanceof Between;
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
        if (!table.contains(object, options)) {
            return false;
        }
        List<Object> params = new ArrayList<>(predicate.params());
        params.add(table.keyType().encodeObject(table.primaryKey().getValue(object, options)));
        String sql = "SELECT count(*) FROM (SELECT 1 FROM " + index.sqlName() + where()
                + (where().isEmpty() ? " WHERE " : " AND ") + CollectionSchema.KEY + " = ? LIMIT 1)";
        return table.queryLong(options, sql, params) > 0;
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
