package io.quackjvm.api.internal.query;

import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.simple.Between;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.GreaterThan;
import com.googlecode.cqengine.query.simple.Has;
import com.googlecode.cqengine.query.simple.In;
import com.googlecode.cqengine.query.simple.LessThan;
import com.googlecode.cqengine.query.simple.StringContains;
import com.googlecode.cqengine.query.simple.StringEndsWith;
import com.googlecode.cqengine.query.simple.StringIsContainedIn;
import com.googlecode.cqengine.query.simple.StringIsPrefixOf;
import com.googlecode.cqengine.query.simple.StringStartsWith;
import io.quackjvm.api.spi.ValueType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Translates a CQEngine simple query on an indexed attribute into a SQL condition on the stored value column, or
 * one on the primary key into a condition on the key column (keys are stored through {@link ValueType} too, see
 * {@link KeyType}). Values are bound in their {@link ValueType} stored form, which is what makes DuckDB's answer
 * Java's.
 */
public final class IndexPredicates {

    /** Query classes that can be answered in SQL for any value type (string matching only for strings). */
    static final Set<Class<?>> SUPPORTED = Set.of(Equal.class, In.class, LessThan.class, GreaterThan.class,
            Between.class, Has.class, StringStartsWith.class, StringEndsWith.class, StringContains.class,
            StringIsContainedIn.class, StringIsPrefixOf.class);

    private IndexPredicates() {
    }

    /**
     * The condition for {@code query} on {@code column}, or {@code null} when DuckDB cannot answer it with Java's
     * semantics (a value of another type than the attribute's, a string query on a non-string attribute).
     */
    @SuppressWarnings("unchecked")
    public static <V> SqlPredicate translate(Query<?> query, ValueType<V> type, String column) {
        if (!SUPPORTED.contains(query.getClass())) {
            return null;
        }
        Class<V> javaType = type.javaType();
        if (query instanceof Has<?, ?>) {
            return new SqlPredicate("TRUE", List.of());
        }
        if (query instanceof Equal<?, ?> q) {
            Object v = q.getValue();
            return javaType.isInstance(v) ? new SqlPredicate(column + " = ?", List.of(type.encode((V) v))) : null;
        }
        if (query instanceof In<?, ?> q) {
            StringJoiner marks = new StringJoiner(", ", column + " IN (", ")");
            List<Object> params = new ArrayList<>();
            for (Object v : q.getValues()) {
                if (!javaType.isInstance(v)) {
                    return null;
                }
                marks.add("?");
                params.add(type.encode((V) v));
            }
            return params.isEmpty() ? new SqlPredicate("FALSE", List.of()) : new SqlPredicate(marks.toString(), params);
        }
        if (query instanceof LessThan<?, ?> q) {
            return upper(type, column, q.getValue(), q.isValueInclusive());
        }
        if (query instanceof GreaterThan<?, ?> q) {
            return lower(type, column, q.getValue(), q.isValueInclusive());
        }
        if (query instanceof Between<?, ?> q) {
            SqlPredicate lo = lower(type, column, q.getLowerValue(), q.isLowerInclusive());
            SqlPredicate hi = upper(type, column, q.getUpperValue(), q.isUpperInclusive());
            if (lo == null || hi == null) {
                return null;
            }
            List<Object> params = new ArrayList<>(lo.params());
            params.addAll(hi.params());
            return new SqlPredicate(lo.sql() + " AND " + hi.sql(), params);
        }
        if (!type.isString()) {
            return null;
        }
        // Stored strings encode one UTF-16 code unit as one code point, so these are Java's String methods.
        if (query instanceof StringStartsWith<?, ?> q) {
            return string("starts_with(" + column + ", ?)", q.getValue());
        }
        if (query instanceof StringEndsWith<?, ?> q) {
            return string("ends_with(" + column + ", ?)", q.getValue());
        }
        if (query instanceof StringContains<?, ?> q) {
            return string("contains(" + column + ", ?)", q.getValue());
        }
        if (query instanceof StringIsContainedIn<?, ?> q) {
            return string("contains(?, " + column + ")", q.getValue());
        }
        if (query instanceof StringIsPrefixOf<?, ?> q) {
            return string("starts_with(?, " + column + ")", q.getValue());
        }
        return null;
    }

    private static SqlPredicate string(String sql, CharSequence value) {
        return value == null ? null : new SqlPredicate(sql, List.of(ValueType.encodeString(value.toString())));
    }

    /** {@code column > bound} (or {@code >=}): above every stored form that compares equal, or from the first. */
    @SuppressWarnings("unchecked")
    public static <V> SqlPredicate lower(ValueType<V> type, String column, Object bound, boolean inclusive) {
        if (!type.javaType().isInstance(bound)) {
            return null;
        }
        V v = (V) bound;
        return inclusive ? new SqlPredicate(column + " >= ?", List.of(type.rangeStart(v)))
                : new SqlPredicate(column + " > ?", List.of(type.rangeEnd(v)));
    }

    /** {@code column < bound} (or {@code <=}). */
    @SuppressWarnings("unchecked")
    public static <V> SqlPredicate upper(ValueType<V> type, String column, Object bound, boolean inclusive) {
        if (!type.javaType().isInstance(bound)) {
            return null;
        }
        V v = (V) bound;
        return inclusive ? new SqlPredicate(column + " <= ?", List.of(type.rangeEnd(v)))
                : new SqlPredicate(column + " < ?", List.of(type.rangeStart(v)));
    }
}
