package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.index.IndexTable;
import io.quackjvm.api.internal.query.ExistsInSql;
import io.quackjvm.api.internal.query.QuerySql;
import io.quackjvm.api.internal.query.Visible;
import io.quackjvm.api.internal.result.TranslatedResultSet;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.persistence.Persistence;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.AttributeOrder;
import com.googlecode.cqengine.query.option.OrderByOption;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.query.simple.SimpleQuery;
import com.googlecode.cqengine.resultset.ResultSet;
import com.googlecode.cqengine.resultset.closeable.CloseableResultSet;
import com.googlecode.cqengine.resultset.order.AttributeOrdersComparator;

import java.util.StringJoiner;

/**
 * The {@link ConcurrentIndexedCollection} that {@code DuckDBDatabase.collection(pk).build()} returns: a collection
 * of a shared database, which knows its {@link CollectionTable} so that queries can be answered by DuckDB as a
 * whole.
 *
 * <p>{@link #retrieve} translates the query with {@link QuerySql}: when any part of it is translatable, the
 * objects come from one statement (the translated part as a key set, the rest filtered in Java), ordered in SQL
 * when every {@code orderBy} attribute is single-valued and visible with Java's order; otherwise CQEngine's own
 * engine answers, as for any collection. Queries with {@code min}/{@code max} always go to CQEngine's engine. An
 * {@code existsIn} between two collections of this database on an attribute DuckDB cannot see is refused.
 */
public class QuackCollection<O> extends ConcurrentIndexedCollection<O> {

    private final CollectionTable<O, ?> table;

    public <A extends Comparable<A>> QuackCollection(Persistence<O, A> persistence, CollectionTable<O, A> table) {
        super(persistence);
        this.table = table;
    }

    /** The collection's engine. */
    public CollectionTable<O, ?> table() {
        return table;
    }

    @Override
    public ResultSet<O> retrieve(Query<O> query) {
        return retrieve(query, new QueryOptions());
    }

    @Override
    public ResultSet<O> retrieve(Query<O> query, QueryOptions queryOptions) {
        table.checkOpen();
        QueryOptions options = queryOptions == null ? new QueryOptions() : queryOptions;
        // the query the statements come from, for the slow-statement log
        options.put(io.quackjvm.api.internal.database.Statements.ORIGIN, query);
        ExistsInSql.checkExistsIn(table, query);
        TranslatedResultSet.Plan<O> plan = plan(query, options);
        if (plan == null) {
            return super.retrieve(query, options);
        }
        QueryOptions opened = openRequestScopeResourcesIfNecessary(options);
        flagAsReadRequest(opened);
        ResultSet<O> results = new TranslatedResultSet<>(table, query, opened, plan);
        return new CloseableResultSet<>(results, query, opened) {
            @Override
            public void close() {
                super.close();
                closeRequestScopeResourcesIfNecessary(opened);
            }
        };
    }

    /**
     * How {@code query} is answered, as text: whether DuckDB answers it as a whole or CQEngine's engine does with
     * the collection's indexes, the statement and DuckDB's plan of it, and what is filtered or ordered in Java.
     */
    public String explain(Query<O> query, QueryOptions queryOptions) {
        table.checkOpen();
        QueryOptions options = queryOptions == null ? new QueryOptions() : queryOptions;
        StringBuilder out = new StringBuilder("Query: ").append(query).append('\n');
        String sql;
        java.util.List<Object> params;
        if (onKey(query, options)) {
            out.append("Answered by: the primary key (the object cache first when it is on), one statement per key\n");
            sql = table.columns().sql().selectByKey();
            Object key = query instanceof com.googlecode.cqengine.query.simple.Equal<O, ?> e ? e.getValue()
                    : ((com.googlecode.cqengine.query.simple.In<O, ?>) query).getValues().iterator().next();
            @SuppressWarnings("unchecked")
            KeyType<Object> keyType = (KeyType<Object>) table.schema().keyType();
            params = java.util.List.of(keyType.encode(key));
        } else {
            TranslatedResultSet.Plan<O> plan = plan(query, options);
            if (plan == null) {
                out.append("Answered by: CQEngine's query engine, with the collection's indexes (")
                        .append(QuerySql.hasComparative(query) ? "a comparative query (longestPrefix, min, max...) "
                                + "has no SQL form" : "a simple query on a covering index is answered from that index's "
                                + "table").append("); each index runs a statement of its own\n");
                return out.toString();
            }
            QuerySql.Translation<O> t = plan.translation();
            out.append("Answered by: DuckDB, one statement").append(plan.byKeys() ? " (when few objects match, their "
                    + "keys first and then the objects by key)" : "").append('\n');
            out.append("Filtered in Java: ").append(t.residual() == null ? "nothing" : t.residual() + " ("
                    + t.untranslatable() + ")").append('\n');
            out.append("Ordered in Java: ").append(plan.javaOrder() == null ? "no" : "yes (an order DuckDB cannot "
                    + "give as Java would)").append('\n');
            sql = plan.sql();
            params = t.params();
        }
        out.append("Statement: ").append(sql).append('\n').append("Plan:\n");
        String explained = table.statements().read(options, "Explaining a query", c -> {
            try (java.sql.PreparedStatement ps = c.connection().prepareStatement("EXPLAIN " + sql)) {
                CollectionStatements.bind(ps, params);
                try (java.sql.ResultSet rs = ps.executeQuery();
                     io.quackjvm.api.spi.RowCursor rows = table.database().reader(false).open(rs)) {
                    return io.quackjvm.api.internal.answer.SqlRunner.explainText(rows);
                }
            }
        });
        return out.append(explained).toString();
    }

    /**
     * Whether {@code query} is one simple query, unordered, on an attribute with a covering {@code DuckDBIndex}:
     * that index answers it from its own table (no key set, no object table), so CQEngine's engine, which hands it
     * to the index, is the faster way.
     */
    private boolean onCoveringIndex(Query<O> query, QueryOptions options) {
        if (!(query instanceof SimpleQuery<O, ?> simple)
                || query instanceof com.googlecode.cqengine.query.simple.ExistsIn
                || options.get(OrderByOption.class) != null) {
            return false;
        }
        for (IndexTable<O, ?> index : table.indexes().all()) {
            if (index.covering() && index.attribute().equals(simple.getAttribute())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code query} is an unordered {@code equal} or {@code in} on the primary key: CQEngine's engine hands
     * it to the identity index, which answers it from the object cache or with one statement by key (the translated
     * plan would run two, the keys and then their objects).
     */
    private boolean onKey(Query<O> query, QueryOptions options) {
        return options.get(OrderByOption.class) == null
                && (query.getClass() == com.googlecode.cqengine.query.simple.Equal.class
                || query.getClass() == com.googlecode.cqengine.query.simple.In.class)
                && ((SimpleQuery<O, ?>) query).getAttribute().equals(table.schema().primaryKey());
    }

    /**
     * The statement fetching the objects of {@code query}, or {@code null} when CQEngine's engine must answer. An
     * {@code orderBy} on attributes DuckDB cannot order by as Java does (multi-valued, nullable, computed, strings
     * of a columnar field) is applied in Java with CQEngine's own comparator, after the statement.
     */
    private TranslatedResultSet.Plan<O> plan(Query<O> query, QueryOptions options) {
        if (QuerySql.hasComparative(query) || onCoveringIndex(query, options) || onKey(query, options)) {
            return null;
        }
        QuerySql.Translation<O> translation = QuerySql.translate(table, query, options);
        if (translation.keysSql() == null) {
            return null;
        }
        String where = " WHERE o." + CollectionSchema.KEY + " IN (" + translation.keysSql() + ")";
        @SuppressWarnings("unchecked")
        OrderByOption<O> orderBy = options.get(OrderByOption.class);
        if (orderBy == null || orderBy.getAttributeOrders().isEmpty()) {
            return new TranslatedResultSet.Plan<>(translation,
                    "SELECT " + table.columns().qualified("o") + " FROM " + table.schema().sqlName() + " o" + where, null, true);
        }
        StringBuilder joins = new StringBuilder();
        StringJoiner order = new StringJoiner(", ", " ORDER BY ", "");
        int n = 0;
        for (AttributeOrder<O> ao : orderBy.getAttributeOrders()) {
            Attribute<O, ?> attribute = ao.getAttribute();
            Visible v = Visible.of(table, attribute);
            if (v == null || !v.orderable() || !v.singleValued() || !(attribute instanceof SimpleAttribute)) {
                return new TranslatedResultSet.Plan<>(translation, "SELECT " + table.columns().qualified("o") + " FROM "
                        + table.schema().sqlName() + " o" + where,
                        new AttributeOrdersComparator<>(orderBy.getAttributeOrders(), options), true);
            }
            String expression;
            if (v.from().equals(table.schema().sqlName())) {
                expression = v.order("o.", ao.isDescending());
            } else {
                String alias = "s" + (n++);
                joins.append(" LEFT JOIN ").append(v.from()).append(' ').append(alias).append(" ON ").append(alias)
                        .append('.').append(CollectionSchema.KEY).append(" = o.").append(CollectionSchema.KEY);
                expression = v.order(alias + ".", ao.isDescending());
            }
            order.add(expression);
        }
        return new TranslatedResultSet.Plan<>(translation,
                "SELECT " + table.columns().qualified("o") + " FROM " + table.schema().sqlName() + " o" + joins + where + order, null,
                false);
    }
}
