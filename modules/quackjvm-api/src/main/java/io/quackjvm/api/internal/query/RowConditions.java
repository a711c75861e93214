package io.quackjvm.api.internal.query;

import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.index.IndexTable;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.logical.And;
import com.googlecode.cqengine.query.logical.Not;
import com.googlecode.cqengine.query.logical.Or;
import com.googlecode.cqengine.query.simple.All;
import com.googlecode.cqengine.query.simple.None;
import com.googlecode.cqengine.query.simple.SimpleQuery;

import java.util.ArrayList;
import java.util.List;

/**
 * A query over one collection as a condition on the rows of a single relation, so that an aggregate with a
 * {@code where} reads that relation once instead of semi-joining it with the key set of the matching objects.
 * Two relations qualify:
 * <ul>
 *   <li>the object table, when every leaf of the query is on the primary key or on a column the layout declares
 *   for its attribute ({@link Visible#column}), with the conditions {@link Visible#condition} gives;</li>
 *   <li>the index table of a single-valued attribute, when every leaf is on that attribute (an object without a
 *   value has no row there, which is right for an aggregate of that attribute, to which it adds nothing).</li>
 * </ul>
 * {@code and}, {@code or} and {@code not} become SQL's; each leaf under a {@code not} is made two-valued
 * ({@code coalesce(..., FALSE)}) so that {@code not} of a condition on a NULL column keeps CQEngine's meaning
 * (the object does not match the inner query, so it matches the negation); elsewhere a NULL already excludes the
 * row, and a bare comparison lets DuckDB push it into the table scan. Anything else returns {@code null} and the
 * caller falls back to the key set. Stateless.
 */
public final class RowConditions {

    private RowConditions() {
    }

    /**
     * The condition {@code query} puts on a row of {@code relation} (the object table or one index table of
     * {@code table}), with unqualified column names, or {@code null} when it cannot be put on that relation alone.
     */
    public static <O> SqlPredicate of(CollectionTable<O, ?> table, String relation, Query<O> query) {
        IndexTable<O, ?> index = null;
        if (!relation.equals(table.schema().sqlName())) {
            for (IndexTable<O, ?> t : table.indexes().all()) {
                if (t.sqlName().equals(relation)) {
                    index = t;
                }
            }
            if (index == null || !index.singleValued()) {
                return null;
            }
        }
        return translate(table, index, query, false);
    }

    /** {@code negated}: under an odd number of {@code not}s, where a NULL leaf must read as false. */
    private static <O> SqlPredicate translate(CollectionTable<O, ?> table, IndexTable<O, ?> index, Query<O> query,
                                              boolean negated) {
        if (query instanceof And<O> and) {
            return combine(table, index, and.getChildQueries(), " AND ", negated);
        }
        if (query instanceof Or<O> or) {
            return combine(table, index, or.getChildQueries(), " OR ", negated);
        }
        if (query instanceof Not<O> not) {
            SqlPredicate inner = translate(table, index, not.getNegatedQuery(), !negated);
            return inner == null ? null : new SqlPredicate("NOT (" + inner.sql() + ")", inner.params());
        }
        if (query instanceof All) {
            return new SqlPredicate("TRUE", List.of());
        }
        if (query instanceof None) {
            return new SqlPredicate("FALSE", List.of());
        }
        if (!(query instanceof SimpleQuery<O, ?> simple)) {
            return null;
        }
        SqlPredicate leaf = index != null ? indexLeaf(index, simple) : objectLeaf(table, simple);
        if (leaf == null || !negated) {
            // Outside a NOT a NULL leaf already excludes the row, and a bare comparison is pushed into the scan.
            return leaf;
        }
        return new SqlPredicate("coalesce(" + leaf.sql() + ", FALSE)", leaf.params());
    }

    private static <O> SqlPredicate combine(CollectionTable<O, ?> table, IndexTable<O, ?> index,
                                            java.util.Collection<Query<O>> children, String operator,
                                            boolean negated) {
        StringBuilder sql = new StringBuilder("(");
        List<Object> params = new ArrayList<>();
        for (Query<O> child : children) {
            SqlPredicate p = translate(table, index, child, negated);
            if (p == null) {
                return null;
            }
            if (sql.length() > 1) {
                sql.append(operator);
            }
            sql.append(p.sql());
            params.addAll(p.params());
        }
        return new SqlPredicate(sql.append(')').toString(), params);
    }

    private static <O> SqlPredicate indexLeaf(IndexTable<O, ?> index, SimpleQuery<O, ?> query) {
        if (!index.attribute().equals(query.getAttribute())) {
            return null;
        }
        return IndexPredicates.translate(query, index.valueType(), Visible.IndexColumn.VALUE);
    }

    private static <O> SqlPredicate objectLeaf(CollectionTable<O, ?> table, SimpleQuery<O, ?> query) {
        Attribute<O, ?> attribute = query.getAttribute();
        if (attribute.equals(table.schema().primaryKey())) {
            return IndexPredicates.translate(query, table.schema().keyType().valueType(), CollectionSchema.KEY);
        }
        Visible column = Visible.column(table, attribute);
        return column == null ? null : column.condition(query);
    }
}
