package io.quackjvm.api.internal.query;

import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.index.IndexTable;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.ComparativeQuery;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.logical.And;
import com.googlecode.cqengine.query.logical.LogicalQuery;
import com.googlecode.cqengine.query.logical.Not;
import com.googlecode.cqengine.query.logical.Or;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.query.simple.All;
import com.googlecode.cqengine.query.simple.Equal;
import com.googlecode.cqengine.query.simple.ExistsIn;
import com.googlecode.cqengine.query.simple.Has;
import com.googlecode.cqengine.query.simple.In;
import com.googlecode.cqengine.query.simple.None;
import com.googlecode.cqengine.query.simple.SimpleQuery;

import java.util.ArrayList;
import java.util.List;

/**
 * Translates a CQEngine query over one collection into SQL: the key set of the objects that match, as one
 * {@code SELECT _key ...} statement. {@code and} becomes a chain of semi-joins ({@code _key IN (...)}), {@code or} a
 * {@code UNION ALL} and {@code not} the complement ({@code _key NOT IN (...)}) over key sets, so {@code not} keeps
 * CQEngine's meaning (every object minus the matches, where a multi-valued attribute matches when any value does);
 * the objects are fetched with {@code _key IN (keys)}, so an object matching several branches comes once. Leaves are simple queries on attributes DuckDB can see ({@link Visible}), {@code all()},
 * {@code none()}, and {@code existsIn} whose foreign collection lives in the same database (a semi-join).
 *
 * <p>What cannot be translated: queries on attributes DuckDB cannot see, {@code matchesRegex} and other queries
 * without an exact SQL form, {@code min}/{@code max} ({@link ComparativeQuery}), {@code existsIn} across
 * databases or over an on-heap collection. At the top level and in nested {@code and}s the translatable
 * conjuncts are pushed down and the rest is returned as the {@linkplain Translation#residual() residual} that
 * Java must still filter; under {@code or} and {@code not} a part that cannot be translated makes the whole
 * branch Java's. Values are bound in their stored form, never concatenated. Stateless and thread-safe.
 */
public final class QuerySql {

    private QuerySql() {
    }

    /**
     * The translation of a query over one collection.
     *
     * @param <O> the object type
     */
    public static final class Translation<O> {
        private final String keysSql;
        private final List<Object> params;
        private final Query<O> residual;
        private final String untranslatable;

        Translation(String keysSql, List<Object> params, Query<O> residual, String untranslatable) {
            this.keysSql = keysSql;
            this.params = List.copyOf(params);
            this.residual = residual;
            this.untranslatable = untranslatable;
        }

        /** Whether the whole query is in SQL ({@link #residual()} is {@code null}). */
        public boolean complete() {
            return residual == null;
        }

        /**
         * A SELECT whose single column is the collection's stored key column {@code _key}, for the objects
         * matching the translated part; {@code null} when nothing could be translated. A key may come more than
         * once (a multi-valued attribute's index rows); wrap it in {@code _key IN (...)} or {@code DISTINCT}.
         */
        public String keysSql() {
            return keysSql;
        }

        /** The values of the {@code ?} placeholders of {@link #keysSql()}, in order, in their stored form. */
        public List<Object> params() {
            return params;
        }

        /** What Java must still filter the objects of {@link #keysSql()} with; {@code null} when complete. */
        public Query<O> residual() {
            return residual;
        }

        /**
         * Names the first part of the query DuckDB cannot evaluate and how to make it visible; {@code null} when
         * complete.
         */
        public String untranslatable() {
            return untranslatable;
        }
    }

    /** Translates {@code query} over the collection of {@code table}. */
    public static <O> Translation<O> translate(CollectionTable<O, ?> table, Query<O> query, QueryOptions options) {
        List<SqlPredicate> pushed = new ArrayList<>();
        List<Double> ranks = new ArrayList<>();
        List<Query<O>> rest = new ArrayList<>();
        String[] why = new String[1];
        collect(table, query, pushed, ranks, rest, why);
        Query<O> residual = rest.isEmpty() ? null : rest.size() == 1 ? rest.get(0) : new And<>(rest);
        if (pushed.isEmpty()) {
            return new Translation<>(null, List.of(), residual, why[0]);
        }
        SqlPredicate keys = intersect(pushed, ranks);
        return new Translation<>(keys.sql(), keys.params(), residual, residual == null ? null : why[0]);
    }

    /** Whether {@code query} contains a {@code min}/{@code max}, which only CQEngine's engine can evaluate. */
    public static boolean hasComparative(Query<?> query) {
        if (query instanceof ComparativeQuery) {
            return true;
        }
        if (query instanceof LogicalQuery<?> l) {
            for (Query<?> child : l.getChildQueries()) {
                if (hasComparative(child)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static <O> void collect(CollectionTable<O, ?> table, Query<O> query, List<SqlPredicate> pushed,
                                    List<Double> ranks, List<Query<O>> rest, String[] why) {
        if (query instanceof And<O> and) {
            for (Query<O> child : and.getChildQueries()) {
                collect(table, child, pushed, ranks, rest, why);
            }
            return;
        }
        SqlPredicate p = keys(table, query, why);
        if (p != null) {
            pushed.add(p);
            ranks.add(score(table, query));
        } else {
            rest.add(query);
        }
    }

    /**
     * The key set of the objects of {@code table} matching {@code query} as a whole, or {@code null} (with the
     * reason in {@code why[0]} if none is there yet) when some part cannot be translated.
     */
    static <O> SqlPredicate keys(CollectionTable<O, ?> table, Query<O> query, String[] why) {
        if (query instanceof And<O> and) {
            List<SqlPredicate> parts = children(table, and, why);
            if (parts == null) {
                return null;
            }
            List<Double> ranks = new ArrayList<>();
            for (Query<O> child : and.getChildQueries()) {
                ranks.add(score(table, child));
            }
            return intersect(parts, ranks);
        }
        if (query instanceof Or<O> or) {
            List<SqlPredicate> parts = children(table, or, why);
            return parts == null ? null : union(parts);
        }
        if (query instanceof Not<O> not) {
            // Keys are never NULL, so NOT IN is the complement (an anti-join).
            SqlPredicate inner = keys(table, not.getNegatedQuery(), why);
            return inner == null ? null : new SqlPredicate(all(table) + " WHERE " + CollectionSchema.KEY
                    + " NOT IN (" + inner.sql() + ")", inner.params());
        }
        if (query instanceof All) {
            return new SqlPredicate(all(table), List.of());
        }
        if (query instanceof None) {
            return new SqlPredicate(all(table) + " WHERE FALSE", List.of());
        }
        if (query instanceof ExistsIn<O, ?, ?> exists) {
            return ExistsInSql.keys(table, exists, why);
        }
        if (query instanceof ComparativeQuery) {
            note(why, query + ": min and max are evaluated by CQEngine's engine");
            return null;
        }
        if (query instanceof SimpleQuery<O, ?> simple) {
            Visible visible = Visible.of(table, simple.getAttribute());
            if (visible == null) {
                note(why, query + ": " + Visible.howToSee(simple.getAttribute()));
                return null;
            }
            SqlPredicate p = visible.keys(query);
            if (p == null) {
                note(why, query + ": " + query.getClass().getSimpleName() + " on " + visible.describe()
                        + " has no SQL form with Java's semantics (or its value is not of the attribute's type)");
            }
            return p;
        }
        note(why, query + ": " + query.getClass().getName() + " is not a query DuckDB can evaluate");
        return null;
    }

    private static <O> List<SqlPredicate> children(CollectionTable<O, ?> table, LogicalQuery<O> logical,
                                                   String[] why) {
        List<SqlPredicate> parts = new ArrayList<>();
        for (Query<O> child : logical.getChildQueries()) {
            SqlPredicate p = keys(table, child, why);
            if (p == null) {
                return null;
            }
            parts.add(p);
        }
        return parts;
    }

    /**
     * How selective a part is likely to be, without statistics: 0 for equality and {@code in}, 1 for ranges and
     * string matches, 2 for {@code existsIn}, 3 for what usually matches most ({@code has}, {@code not},
     * {@code all}). An {@code and} is as selective as its most selective part, an {@code or} as its least.
     */
    static int rank(Query<?> query) {
        if (query instanceof Equal || query instanceof In || query instanceof None) {
            return 0;
        }
        if (query instanceof And<?> and) {
            int r = 3;
            for (Query<?> child : and.getChildQueries()) {
                r = Math.min(r, rank(child));
            }
            return r;
        }
        if (query instanceof Or<?> or) {
            int r = 0;
            for (Query<?> child : or.getChildQueries()) {
                r = Math.max(r, rank(child));
            }
            return r;
        }
        if (query instanceof ExistsIn) {
            return 2;
        }
        if (query instanceof Has || query instanceof Not || query instanceof All) {
            return 3;
        }
        return 1;
    }

    /**
     * {@link #rank} refined by what {@code optimize()} measured: an equality or {@code in} on an indexed attribute
     * whose distinct values were counted is expected to match {@code values / distinct} of the objects, so among
     * equalities the one on the attribute with the most distinct values goes innermost (an unmeasured one counts
     * as matching half). Between 0 and 1 for equalities; the other kinds keep their rank.
     */
    static <O> double score(CollectionTable<O, ?> table, Query<O> query) {
        if (query instanceof And<O> and) {
            double r = 3;
            for (Query<O> child : and.getChildQueries()) {
                r = Math.min(r, score(table, child));
            }
            return r;
        }
        if (query instanceof Or<O> or) {
            double r = 0;
            for (Query<O> child : or.getChildQueries()) {
                r = Math.max(r, score(table, child));
            }
            return r;
        }
        int rank = rank(query);
        if (rank != 0 || !(query instanceof Equal || query instanceof In)) {
            return rank;
        }
        Attribute<O, ?> attribute = ((SimpleQuery<O, ?>) query).getAttribute();
        if (attribute.equals(table.schema().primaryKey())) {
            return 0.0;
        }
        int values = query instanceof In<O, ?> in ? Math.max(1, in.getValues().size()) : 1;
        for (IndexTable<O, ?> index : table.indexes().all()) {
            if (index.attribute().equals(attribute)) {
                long distinct = index.distinctValues();
                return distinct <= 0 ? 0.5 : Math.min(0.99, (double) values / distinct);
            }
        }
        return 0.5;
    }

    /**
     * The keys in every part: a chain of semi-joins, the least selective part outermost and the most selective
     * innermost, so that each hash table DuckDB builds holds the smaller side and the outer scans are filtered by
     * it (measured several times faster than {@code INTERSECT}, which hashes every side whole).
     */
    private static SqlPredicate intersect(List<SqlPredicate> parts, List<Double> ranks) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        Integer[] order = new Integer[parts.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        // Stable: least selective first; the innermost (last) is the most selective.
        java.util.Arrays.sort(order, (a, b) -> Double.compare(ranks.get(b), ranks.get(a)));
        StringBuilder sql = new StringBuilder();
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < order.length; i++) {
            SqlPredicate p = parts.get(order[i]);
            if (i > 0) {
                sql.append(" WHERE ").append(CollectionSchema.KEY).append(" IN (");
            }
            sql.append("SELECT ").append(CollectionSchema.KEY).append(" FROM (").append(p.sql()).append(')');
            params.addAll(p.params());
        }
        sql.append(")".repeat(order.length - 1));
        return new SqlPredicate(sql.toString(), params);
    }

    /** The keys in any part; a key may come more than once. */
    private static SqlPredicate union(List<SqlPredicate> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        StringBuilder sql = new StringBuilder();
        List<Object> params = new ArrayList<>();
        for (SqlPredicate p : parts) {
            if (sql.length() > 0) {
                sql.append(" UNION ALL ");
            }
            sql.append("SELECT ").append(CollectionSchema.KEY).append(" FROM (").append(p.sql()).append(')');
            params.addAll(p.params());
        }
        return new SqlPredicate(sql.toString(), params);
    }

    private static String all(CollectionTable<?, ?> table) {
        return "SELECT " + CollectionSchema.KEY + " FROM " + table.schema().sqlName();
    }

    static void note(String[] why, String message) {
        if (why[0] == null) {
            why[0] = "DuckDB cannot evaluate " + message;
        }
    }
}
