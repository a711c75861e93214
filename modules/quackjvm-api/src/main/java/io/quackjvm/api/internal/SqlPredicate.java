package io.quackjvm.api.internal;

import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.simple.Between;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.GreaterThan;
import com.googlecode.cqengine.query.simple.Has;
import com.googlecode.cqengine.query.simple.In;
import com.googlecode.cqengine.query.simple.LessThan;
import com.googlecode.cqengine.query.simple.StringStartsWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * A CQEngine simple query translated into a SQL condition on one column, with its parameters.
 *
 * @param sql    the condition, for example {@code "_key = ?"}; {@code "TRUE"} for {@link Has}
 * @param params the values of its {@code ?} placeholders, in order
 */
public record SqlPredicate(String sql, List<Object> params) {

    /** The query classes {@link #translate} understands. */
    public static final Set<Class<?>> SUPPORTED = Set.of(Equal.class, In.class, LessThan.class, GreaterThan.class,
            Between.class, StringStartsWith.class, Has.class);

    /** Translates {@code query} on {@code column}, or returns {@code null} when it cannot be said in SQL. */
    public static SqlPredicate translate(Query<?> query, String column) {
        if (query instanceof Equal<?, ?> q) {
            return new SqlPredicate(column + " = ?", List.of(q.getValue()));
        }
        if (query instanceof In<?, ?> q) {
            StringJoiner marks = new StringJoiner(", ", column + " IN (", ")");
            List<Object> params = new ArrayList<>();
            for (Object v : q.getValues()) {
                marks.add("?");
                params.add(v);
            }
            return params.isEmpty() ? new SqlPredicate("FALSE", List.of()) : new SqlPredicate(marks.toString(), params);
        }
        if (query instanceof LessThan<?, ?> q) {
            return new SqlPredicate(column + (q.isValueInclusive() ? " <= ?" : " < ?"), List.of(q.getValue()));
        }
        if (query instanceof GreaterThan<?, ?> q) {
            return new SqlPredicate(column + (q.isValueInclusive() ? " >= ?" : " > ?"), List.of(q.getValue()));
        }
        if (query instanceof Between<?, ?> q) {
            return new SqlPredicate(column + (q.isLowerInclusive() ? " >= ?" : " > ?") + " AND " + column
                    + (q.isUpperInclusive() ? " <= ?" : " < ?"), List.of(q.getLowerValue(), q.getUpperValue()));
        }
        if (query instanceof StringStartsWith<?, ?> q && isValidUtf16(q.getValue().toString())) {
            // starts_with compares code points, which is exactly String.startsWith; "" matches everything.
            return new SqlPredicate("starts_with(" + column + ", ?)", List.of(q.getValue().toString()));
        }
        if (query instanceof Has<?, ?>) {
            return new SqlPredicate("TRUE", List.of());
        }
        return null;
    }

    /**
     * DuckDB stores text as UTF-8, which cannot hold an unpaired surrogate; Java strings can. A prefix with one
     * cannot be said in SQL, so such a query is left to CQEngine.
     */
    static boolean isValidUtf16(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
