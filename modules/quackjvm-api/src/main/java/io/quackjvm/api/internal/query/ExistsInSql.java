package io.quackjvm.api.internal.query;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.logical.LogicalQuery;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.query.simple.ExistsIn;
import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.collection.QuackCollection;
import io.quackjvm.api.internal.database.Database;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code existsIn} between two collections of one database: refused up front when DuckDB cannot see an attribute
 * it joins on, and otherwise translated into a semi-join of the two value relations ({@link Visible}) restricted
 * by the foreign query. A foreign collection of another database or on the heap is left to CQEngine. Stateless.
 */
public final class ExistsInSql {

    private ExistsInSql() {
    }

    /**
     * Refuses an {@code existsIn} between two collections of the same database on an attribute DuckDB cannot
     * see: it would run one foreign query per object, which the application should fix rather than wait for.
     *
     * @throws IllegalArgumentException naming the attribute and how to make it visible
     */
    public static void checkExistsIn(CollectionTable<?, ?> table, Query<?> query) {
        if (query instanceof LogicalQuery<?> l) {
            for (Query<?> child : l.getChildQueries()) {
                checkExistsIn(table, child);
            }
            return;
        }
        if (!(query instanceof ExistsIn<?, ?, ?> exists)) {
            return;
        }
        ExistsParts<?> parts = ExistsParts.of(exists);
        CollectionTable<?, ?> foreign = parts == null ? null : tableOf(table.database(), parts.collection);
        if (foreign == null || foreign.database() != table.database()) {
            return;
        }
        refuseInvisible(table, exists.getAttribute(), "local");
        refuseInvisible(foreign, parts.foreignAttribute, "foreign");
        if (parts.restrictions != null) {
            checkExistsIn(foreign, parts.restrictions);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void refuseInvisible(CollectionTable table, Attribute attribute, String side) {
        if (Visible.of(table, attribute) == null) {
            throw new IllegalArgumentException("existsIn between two collections of one DuckDBDatabase needs "
                    + "attributes DuckDB can see, but the " + side
                    + " " + Visible.howToSee(attribute) + " (collection '" + table.name() + "')");
        }
    }

    /** {@code existsIn} as a semi-join, when both collections live in the same database and both sides are visible. */
    static <O, F, A> SqlPredicate keys(CollectionTable<O, ?> table, ExistsIn<O, F, A> query, String[] why) {
        ExistsParts<F> parts = ExistsParts.of(query);
        if (parts == null) {
            QuerySql.note(why, query + ": its parts could not be read");
            return null;
        }
        CollectionTable<F, ?> foreign = tableOf(table.database(), parts.collection);
        if (foreign == null || foreign.database() != table.database()) {
            QuerySql.note(why, query + ": the foreign collection is not a collection of the same DuckDBDatabase (CQEngine "
                    + "evaluates it, one foreign query per object)");
            return null;
        }
        Visible local = Visible.of(table, query.getAttribute());
        if (local == null) {
            QuerySql.note(why, query + ": local " + Visible.howToSee(query.getAttribute()));
            return null;
        }
        Visible remote = Visible.of(foreign, parts.foreignAttribute);
        if (remote == null) {
            QuerySql.note(why, query + ": foreign " + Visible.howToSee(parts.foreignAttribute));
            return null;
        }
        String[] meet = Visible.comparable(local, "", remote, "");
        if (meet == null) {
            QuerySql.note(why, query + ": " + local.describe() + " and " + remote.describe() + " store their values in "
                    + "forms SQL cannot compare (" + local.encoding() + ", " + remote.encoding() + ")");
            return null;
        }
        List<Object> params = new ArrayList<>();
        String restrict = "";
        if (parts.restrictions != null) {
            SqlPredicate r = QuerySql.keys(foreign, parts.restrictions, why);
            if (r == null) {
                return null;
            }
            restrict = " WHERE " + CollectionSchema.KEY + " IN (" + r.sql() + ")";
            params.addAll(r.params());
        }
        String sql = "SELECT " + CollectionSchema.KEY + " FROM " + local.from() + " WHERE " + meet[0]
                + " IN (SELECT " + meet[1] + " FROM " + remote.from() + restrict + ")";
        return new SqlPredicate(sql, params);
    }

    /**
     * The engine of {@code collection} when it is stored in {@code database}, or {@code null} for any other
     * collection (of another database, or on the heap).
     */
    @SuppressWarnings("unchecked")
    static <F> CollectionTable<F, ?> tableOf(Database database, IndexedCollection<F> collection) {
        if (collection instanceof QuackCollection<F> quack) {
            return quack.table().database() == database ? quack.table() : null;
        }
        return collection == null ? null : (CollectionTable<F, ?>) database.collections().tableOf(collection.getPersistence());
    }

    /**
     * The parts of an {@code existsIn}, which CQEngine keeps in package-private fields. They are read without
     * reflection: {@code ExistsIn.equals} compares each field of the receiver with the other query's by calling
     * {@code equals} on the receiver's, so a probe whose fields record what they are compared with receives them.
     */
    static final class ExistsParts<F> {
        private static final Object UNSEEN = new Object();
        final IndexedCollection<F> collection;
        final Attribute<F, ?> foreignAttribute;
        final Query<F> restrictions;

        private ExistsParts(IndexedCollection<F> collection, Attribute<F, ?> foreignAttribute, Query<F> restrictions) {
            this.collection = collection;
            this.foreignAttribute = foreignAttribute;
            this.restrictions = restrictions;
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        static <F> ExistsParts<F> of(ExistsIn<?, F, ?> query) {
            Object[] seen = {UNSEEN, UNSEEN, UNSEEN};
            SimpleAttribute foreignProbe = new SimpleAttribute<Object, Object>(Object.class, Object.class, "probe") {
                @Override public Object getValue(Object o, QueryOptions q) { return null; }
                @Override public boolean equals(Object o) { seen[0] = o; return true; }
                @Override public int hashCode() { return 0; }
            };
            Query restrictionsProbe = new Query<Object>() {
                @Override public boolean matches(Object o, QueryOptions q) { return false; }
                @Override public boolean equals(Object o) { seen[1] = o; return true; }
                @Override public int hashCode() { return 0; }
            };
            SimpleAttribute localProbe = new SimpleAttribute<Object, Object>(Object.class, Object.class, "probe") {
                @Override public Object getValue(Object o, QueryOptions q) { return null; }
                @Override public boolean equals(Object o) { return true; }
                @Override public int hashCode() { return 0; }
            };
            ConcurrentIndexedCollection collectionProbe = new ConcurrentIndexedCollection<Object>() {
                @Override public boolean equals(Object o) { seen[2] = o; return true; }
                @Override public int hashCode() { return 0; }
            };
            ExistsIn probe = new ExistsIn(collectionProbe, localProbe, foreignProbe, restrictionsProbe);
            if (!probe.equals(query) || seen[0] == UNSEEN || seen[1] == UNSEEN || seen[2] == UNSEEN
                    || !(seen[0] instanceof Attribute) || !(seen[2] instanceof IndexedCollection)) {
                return null;
            }
            return new ExistsParts<>((IndexedCollection<F>) seen[2], (Attribute<F, ?>) seen[0], (Query<F>) seen[1]);
        }
    }
}
