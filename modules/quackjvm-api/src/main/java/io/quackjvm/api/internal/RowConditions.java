package io.quackjvm.api.internal;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.logical.And;
import com.googlecode.cqengine.query.logical.Not;
import com.googlecode.cqengine.query.logical.Or;
import com.googlecode.cqengine.query.simple.All;
import com.googlecode.cqengine.query.simple.Between;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.GreaterThan;
import com.googlecode.cqengine.query.simple.Has;
import com.googlecode.cqengine.query.simple.In;
import com.googlecode.cqengine.query.simple.LessThan;
import com.googlecode.cqengine.query.simple.None;
import com.googlecode.cqengine.query.simple.SimpleQuery;
import io.quackjvm.api.spi.Column;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A query over one collection as a condition on the rows of a single relation, so that an aggregate with a
 * {@code where} reads that relation once instead of semi-joining it with the key set of the matching objects.
 * Two relations qualify:
 * <ul>
 *   <li>the object table, when every leaf of the query is on the primary key or on a typed column of the
 *   columnar layout: the columns {@link Visible#column} accepts, and {@code Double} / {@code Float} fields in
 *   DOUBLE / FLOAT columns, compared with Java's {@code equals} and {@code compareTo} (DuckDB's own comparison
 *   treats -0.0 and 0.0 as equal; NaN is the largest value and equal to itself in both);</li>
 *   <li>the index table of a single-valued attribute, when every leaf is on that attribute (an object without a
 *   value has no row there, which is right for an aggregate of that attribute, to which it adds nothing).</li>
 * </ul>
 * {@code and}, {@code or} and {@code not} become SQL's; each leaf under a {@code not} is made two-valued
 * ({@code coalesce(..., FALSE)}) so that {@code not} of a condition on a NULL column keeps CQEngine's meaning
 * (the object does not match the inner query, so it matches the negation); elsewhere a NULL already excludes the
 * row, and a bare comparison lets DuckDB push it into the table scan. Anything else returns {@code null} and the
 * caller falls back to the key set. Stateless.
 */
final class RowConditions {

    private RowConditions() {
    }

    /**
     * The condition {@code query} puts on a row of {@code relation} (the object table or one index table of
     * {@code table}), with unqualified column names, or {@code null} when it cannot be put on that relation alone.
     */
    static <O> SqlPredicate of(CollectionTable<O, ?> table, String relation, Query<O> query) {
        IndexTable<O, ?> index = null;
        if (!relation.equals(table.sqlName())) {
            for (IndexTable<O, ?> t : table.indexTables()) {
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
        return IndexPredicates.translate(query, index.valueType(), Visible.IndexPredicatesAccess.VALUE);
    }

    private static <O> SqlPredicate objectLeaf(CollectionTable<O, ?> table, SimpleQuery<O, ?> query) {
        Attribute<O, ?> attribute = query.getAttribute();
        if (attribute.equals(table.primaryKey())) {
            return IndexPredicates.translate(query, table.keyType().valueType(), CollectionSchema.KEY);
        }
        Visible column = Visible.column(table, attribute);
        if (column != null) {
            return column.condition(query);
        }
        return floatingColumn(table, query);
    }

    // ---------------------------------------------------------------- DOUBLE and FLOAT columns

    /**
     * A condition with Java's semantics on a columnar {@code Double} or {@code Float} field, for equality,
     * {@code in}, ranges and {@code has}. Only zeros need care: Java orders -0.0 below 0.0 and tells them apart,
     * DuckDB does not, so a bound of zero adds a test of the sign bit.
     */
    private static <O> SqlPredicate floatingColumn(CollectionTable<O, ?> table, SimpleQuery<O, ?> query) {
        Attribute<O, ?> attribute = query.getAttribute();
        Class<?> type = attribute.getAttributeType();
        String sqlType = type == Double.class ? "DOUBLE" : type == Float.class ? "FLOAT" : null;
        if (sqlType == null || !"columnar".equals(table.layoutName()) || !(attribute instanceof SimpleAttribute)) {
            return null;
        }
        Column found = null;
        for (Column c : table.valueColumns()) {
            if (c.name().equals(attribute.getAttributeName()) && c.sqlType().toUpperCase(Locale.ROOT).equals(sqlType)) {
                found = c;
            }
        }
        if (found == null) {
            return null;
        }
        // The column compares values; the sign of a zero is read from the value as the layout restores it (a
        // checkpoint may store either sign in the column itself).
        Zero column = new Zero(CollectionSchema.quote(found.name()), table.sqlValue(found, ""));
        if (query instanceof Has) {
            return new SqlPredicate(column.column() + " IS NOT NULL", List.of());
        }
        if (query instanceof Equal<?, ?> q) {
            return equal(column, type, q.getValue());
        }
        if (query instanceof In<?, ?> q) {
            StringBuilder sql = new StringBuilder("(FALSE");
            List<Object> params = new ArrayList<>();
            for (Object v : q.getValues()) {
                SqlPredicate p = equal(column, type, v);
                if (p == null) {
                    return null;
                }
                sql.append(" OR ").append(p.sql());
                params.addAll(p.params());
            }
            return new SqlPredicate(sql.append(')').toString(), params);
        }
        if (query instanceof LessThan<?, ?> q) {
            return bound(column, type, q.getValue(), q.isValueInclusive(), false);
        }
        if (query instanceof GreaterThan<?, ?> q) {
            return bound(column, type, q.getValue(), q.isValueInclusive(), true);
        }
        if (query instanceof Between<?, ?> q) {
            SqlPredicate lo = bound(column, type, q.getLowerValue(), q.isLowerInclusive(), true);
            SqlPredicate hi = bound(column, type, q.getUpperValue(), q.isUpperInclusive(), false);
            if (lo == null || hi == null) {
                return null;
            }
            List<Object> params = new ArrayList<>(lo.params());
            params.addAll(hi.params());
            return new SqlPredicate(lo.sql() + " AND " + hi.sql(), params);
        }
        return null;
    }

    /** {@code column} equals {@code value} as {@code Double.equals} / {@code Float.equals} say. */
    private static SqlPredicate equal(Zero column, Class<?> type, Object value) {
        if (!type.isInstance(value)) {
            return null;
        }
        double d = ((Number) value).doubleValue();
        if (Double.isNaN(d)) {
            return new SqlPredicate("isnan(" + column.column() + ")", List.of());
        }
        if (d == 0.0) {
            return new SqlPredicate("(" + column.column() + " = 0 AND " + (negative(d) ? "" : "NOT ")
                    + column.negative() + ")", List.of());
        }
        return new SqlPredicate(column.column() + " = ?", List.of(value));
    }

    /**
     * {@code column} above ({@code lower}) or below {@code value}, inclusive or not, in Java's {@code compareTo}
     * order: DuckDB's comparison already puts NaN last; only a zero bound differs, where -0.0 < 0.0 in Java.
     */
    private static SqlPredicate bound(Zero column, Class<?> type, Object value, boolean inclusive, boolean lower) {
        if (!type.isInstance(value)) {
            return null;
        }
        double d = ((Number) value).doubleValue();
        String op = (lower ? ">" : "<") + (inclusive ? "=" : "");
        if (d != 0.0) {
            return new SqlPredicate(column.column() + " " + op + " ?", List.of(value));
        }
        // A zero bound: DuckDB sees both zeros as equal to it; Java keeps exactly one of them, both, or neither.
        boolean negative = negative(d);
        boolean keepsNegativeZero = lower ? (negative && inclusive) : (inclusive || !negative);
        boolean keepsPositiveZero = lower ? (inclusive || negative) : (!negative && inclusive);
        String strict = column.column() + " " + (lower ? ">" : "<") + " 0";
        if (keepsNegativeZero && keepsPositiveZero) {
            return new SqlPredicate(column.column() + " " + (lower ? ">=" : "<=") + " 0", List.of());
        }
        if (!keepsNegativeZero && !keepsPositiveZero) {
            return new SqlPredicate(strict, List.of());
        }
        return new SqlPredicate("(" + strict + " OR (" + column.column() + " = 0 AND "
                + (keepsNegativeZero ? "" : "NOT ") + column.negative() + "))", List.of());
    }

    /**
     * A DOUBLE or FLOAT column: {@code column} its quoted name, {@code exact} the value with the sign of its zero as
     * the layout restores it ({@link io.quackjvm.api.spi.ObjectTable#sqlValue}).
     */
    private record Zero(String column, String exact) {
        /** TRUE when the value is negative (for a zero: -0.0). */
        String negative() {
            return "signbit(" + exact + ")";
        }
    }

    private static boolean negative(double zero) {
        return Double.doubleToRawLongBits(zero) < 0;
    }
}
