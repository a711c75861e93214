package io.quackjvm.api.internal.answer;

import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.query.ColumnConditions;
import io.quackjvm.api.internal.query.QuerySql;
import io.quackjvm.api.internal.query.RowConditions;
import io.quackjvm.api.internal.query.SqlPredicate;
import io.quackjvm.api.internal.query.Visible;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.ValueType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.UnaryOperator;

/**
 * The SQL of the typed aggregates ({@code database.from(collection)}): which relation and column hold an
 * attribute's values ({@link Source}), the statement of each aggregate, and reading its answer back into Java
 * values. An attribute is read from its {@code DuckDBIndex} table (values in their {@link ValueType} form, so
 * {@code min}, {@code max}, {@code countDistinct}, quantiles and group keys follow Java's {@code equals} and
 * {@code compareTo} exactly and are decoded in Java), else from the primary key, else from a typed column of the
 * object table named as the attribute (a columnar collection's field). Sums and averages decode numbers in SQL
 * ({@link SqlDecode}). A {@code where} query becomes {@code _key IN (<keys of the matching objects>)}, translated
 * by {@link QuerySql} as retrievals are. Immutable and thread-safe.
 */
public final class AggregateSql<O> {

    private final CollectionTable<O, ?> table;
    private final SqlViews views;
    /** The {@code where} queries, each complete in SQL. */
    private final List<Query<O>> wheres;
    /** The translation of each of {@link #wheres}: the SELECT of the keys of the objects it matches. */
    private final List<QuerySql.Translation<O>> whereKeys;
    /** The call's own options (its timeout), or {@code null} for the database's. */
    private final io.quackjvm.api.DuckDBOptions options;

    private AggregateSql(CollectionTable<O, ?> table, SqlViews views, List<Query<O>> wheres,
                         List<QuerySql.Translation<O>> whereKeys, io.quackjvm.api.DuckDBOptions options) {
        this.table = table;
        this.views = views;
        this.wheres = wheres;
        this.whereKeys = whereKeys;
        this.options = options;
    }

    public static <O> AggregateSql<O> of(CollectionTable<O, ?> table, SqlViews views) {
        return new AggregateSql<>(table, views, List.of(), List.of(), null);
    }

    /** With the call's own options. */
    public AggregateSql<O> with(io.quackjvm.api.DuckDBOptions callOptions) {
        return new AggregateSql<>(table, views, wheres, whereKeys, callOptions);
    }

    /**
     * Restricted to the objects matching {@code query} as well.
     *
     * @throws QuackException naming the part of the query SQL cannot answer and what to do
     */
    public AggregateSql<O> where(Query<O> query) {
        table.checkOpen();
        QuerySql.Translation<O> t = QuerySql.translate(table, query, new QueryOptions());
        if (!t.complete()) {
            throw new QuackException("where(" + query + ") on collection '" + table.name() + "' cannot be answered "
                    + "in SQL: " + t.untranslatable());
        }
        List<Query<O>> queries = new ArrayList<>(wheres);
        queries.add(query);
        List<QuerySql.Translation<O>> keys = new ArrayList<>(whereKeys);
        keys.add(t);
        return new AggregateSql<>(table, views, List.copyOf(queries), List.copyOf(keys), options);
    }

    /** A statement and the values of its placeholders. */
    private record Statement(String sql, List<Object> params) {
    }

    /**
     * Where an attribute's values are, and in which form. {@code exact}, for a DOUBLE or FLOAT column of the object
     * table only: the value with the sign of its zero as the layout restores it, given the qualifier of the
     * relation ({@link io.quackjvm.api.spi.ObjectTable#sqlValue}).
     */
    record Source(String relation, String column, ValueType<?> encoded, Class<?> type, boolean natural,
                  UnaryOperator<String> exact, boolean rawString) {

        Source(String relation, String column, ValueType<?> encoded, Class<?> type, boolean natural) {
            this(relation, column, encoded, type, natural, null, false);
        }

        Source(String relation, String column, ValueType<?> encoded, Class<?> type, boolean natural,
               UnaryOperator<String> exact) {
            this(relation, column, encoded, type, natural, exact, false);
        }

        /**
         * The value as compared, ordered, grouped and returned. A floating column's is a STRUCT of the value and
         * whether it is +0.0, so that {@code min}, {@code max}, {@code count(DISTINCT)}, the quantiles and
         * {@code GROUP BY} tell -0.0 from 0.0 and order it first, as {@code Double.compare} does (DuckDB's
         * DOUBLE sees them as equal; NaN is the largest value in both). {@link #read} turns it back into a number.
         */
        String value(String alias) {
            String raw = alias + "." + column;
            if (rawString) {
                return ColumnConditions.encodedString(raw);
            }
            if (exact == null) {
                return raw;
            }
            return ColumnConditions.signedZero(raw, exact.apply(alias + "."));
        }

        /** The value as a number SQL can add; {@code schema}: where the decoding macros are ({@link SqlViews#schema()}). */
        String number(String alias, String schema) {
            return encoded == null || rawString ? alias + "." + column
                    : SqlDecode.expression(encoded, value(alias), schema);
        }

        /** Reads the value at {@code column} of a row into the attribute's Java type. */
        Object read(RowSource row, int col, String attribute) throws SQLException {
            Object v = row.getObject(col);
            if (v == null) {
                return null;
            }
            if (exact != null && v instanceof Map<?, ?> pair) {
                v = signed((Number) pair.get("v"), Boolean.TRUE.equals(pair.get("p")));
            }
            return encoded != null ? encoded.decode(v) : SqlValues.convert(v, type, attribute);
        }

        /** {@code n} with the sign of its zero restored: {@code positiveZero} tells 0.0 from -0.0. */
        private Object signed(Number n, boolean positiveZero) {
            if (n.doubleValue() != 0) {
                return n;
            }
            if (n instanceof Float) {
                return positiveZero ? 0.0f : -0.0f;
            }
            return positiveZero ? 0.0 : -0.0;
        }
    }

    /** Fails naming the attribute and the fix when SQL cannot see {@code attribute} in this collection. */
    public void checkVisible(Attribute<O, ?> attribute) {
        source(attribute);
    }

    /** The source of {@code attribute}'s values in this collection, or a failure naming it and the fix. */
    Source source(Attribute<O, ?> attribute) {
        return source(attribute, false);
    }

    /**
     * The source of {@code attribute}'s values, resolved by {@link Visible}. A column the layout declares is read
     * directly (no join with an index table) when DuckDB compares it as Java does, or when {@code approximate} (a
     * sum or average, computed in floating point anyway); otherwise the attribute's index table, whose stored forms
     * keep Java's order and equality, is preferred.
     */
    Source source(Attribute<O, ?> attribute, boolean approximate) {
        Visible column = Visible.column(table, attribute);
        if (column != null && (approximate || column.kind() == Visible.Kind.NATIVE
                || column.kind() == Visible.Kind.STORED)) {
            return source(column);
        }
        Visible visible = Visible.of(table, attribute);
        if (visible == null) {
            String name = attribute.getAttributeName();
            throw new QuackException("Attribute '" + name + "' of collection '" + table.name() + "' is not visible "
                    + "to SQL: it has no DuckDBIndex, and the collection's layout keeps it in no column of its own. "
                    + "Add one with collection.addIndex(DuckDBIndex.onAttribute(...)) on that attribute, or store the "
                    + "collection in a layout that keeps it in a column (the columnar layout does for a field named '"
                    + name + "' of a number, boolean, string, date or enum type)");
        }
        return source(visible);
    }

    /** Where {@code v}'s values are read from, and how they become Java values. */
    private Source source(Visible v) {
        return switch (v.kind()) {
            case STORED -> new Source(v.from(), v.value(), v.valueType(), v.valueType().javaType(), false);
            case NATIVE -> new Source(v.from(), v.value(), null, v.javaType(), true);
            case SIGNED_ZERO -> new Source(v.from(), v.value(), null, v.javaType(), true, v.exact());
            // Ordered, compared and grouped in the stored form, whose order is Java's; decoded when read.
            case UTF8 -> new Source(v.from(), v.value(), ValueType.of(String.class), String.class, false, null, true);
        };
    }

    private Source numeric(Attribute<O, ?> attribute, String aggregate) {
        Source s = source(attribute, true);
        if (!Number.class.isAssignableFrom(box(s.type()))) {
            throw new IllegalArgumentException(aggregate + "(" + attribute.getAttributeName() + ") needs a numeric "
                    + "attribute; '" + attribute.getAttributeName() + "' is of type " + s.type().getName());
        }
        return s;
    }

    private static Class<?> box(Class<?> c) {
        return c.isPrimitive() ? (c == double.class ? Double.class : c == float.class ? Float.class : Number.class) : c;
    }

    /**
     * {@code SELECT <select> FROM ... WHERE ...<tail>} over the given sources, the first one's alias {@code a},
     * the second {@code b}. A {@code where} is a condition on the rows of {@code a} when it can be put on that
     * relation alone ({@link RowConditions}), else {@code a._key IN (<keys of its matches>)}. NULL values are not
     * filtered here: every aggregate skips them, and grouped rows with a NULL key or answer are dropped in Java.
     */
    private Statement statement(String select, Source a, Source b, String tail) {
        StringBuilder sql = new StringBuilder("SELECT ").append(select).append(" FROM ").append(a.relation())
                .append(" a");
        boolean join = b != null && !b.relation().equals(a.relation());
        if (join) {
            sql.append(" JOIN ").append(b.relation()).append(" b ON b._key = a._key");
        }
        List<String> conditions = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < wheres.size(); i++) {
            SqlPredicate row = join ? null : RowConditions.of(table, a.relation(), wheres.get(i));
            if (row != null) {
                conditions.add(row.sql());
                params.addAll(row.params());
            } else {
                conditions.add("a._key IN (" + whereKeys.get(i).keysSql() + ")");
                params.addAll(whereKeys.get(i).params());
            }
        }
        if (!conditions.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", conditions));
        }
        return new Statement(sql.append(tail).toString(), params);
    }

    /** The alias of the second source in {@link #from}. */
    private static String second(Source a, Source b) {
        return b.relation().equals(a.relation()) ? "a" : "b";
    }

    // ---------------------------------------------------------------- aggregates

    public long count() {
        Source objects = new Source(table.schema().sqlName(), CollectionSchema.KEY, null, Object.class, false);
        return run(statement("count(*)", objects, null, ""), (row) -> row.getLong(0)).get(0);
    }

    public double sum(Attribute<O, ?> attribute) {
        Source s = numeric(attribute, "sum");
        List<Double> v = run(statement("CAST(sum(" + s.number("a", views.schema()) + ") AS DOUBLE)", s, null, ""),
                row -> row.isNull(0) ? 0.0 : row.getDouble(0));
        return v.get(0);
    }

    public OptionalDouble avg(Attribute<O, ?> attribute) {
        Source s = numeric(attribute, "avg");
        List<Double> v = run(statement("avg(" + s.number("a", views.schema()) + ")", s, null, ""),
                row -> row.isNull(0) ? null : row.getDouble(0));
        return v.get(0) == null ? OptionalDouble.empty() : OptionalDouble.of(v.get(0));
    }

    public <A> Optional<A> extreme(Attribute<O, A> attribute, String function) {
        Source s = source(attribute);
        return single(statement(function + "(" + s.value("a") + ")", s, null, ""), s, attribute);
    }

    public long countDistinct(Attribute<O, ?> attribute) {
        Source s = source(attribute);
        return run(statement("count(DISTINCT " + s.value("a") + ")", s, null, ""), row -> row.getLong(0)).get(0);
    }

    public <A> Optional<A> quantile(Attribute<O, A> attribute, double q) {
        if (!(q >= 0.0 && q <= 1.0)) {
            throw new IllegalArgumentException("quantile(" + attribute.getAttributeName() + ", " + q + "): q must be "
                    + "between 0 and 1");
        }
        Source s = source(attribute);
        return single(statement("quantile_disc(" + s.value("a") + ", " + q + ")", s, null, ""), s, attribute);
    }

    @SuppressWarnings("unchecked")
    private <A> Optional<A> single(Statement sql, Source s, Attribute<O, A> attribute) {
        List<Object> v = run(sql, row -> s.read(row, 0, attribute.getAttributeName()));
        return Optional.ofNullable((A) v.get(0));
    }

    // ---------------------------------------------------------------- grouped

    /** {@code count(*)} per value of {@code group}, in the group values' order. */
    public <G> Map<G, Long> groupCount(Attribute<O, G> group) {
        Source g = source(group);
        return grouped(g, group, "count(*)", null, (row, col) -> row.getLong(col));
    }

    /** {@code function} of {@code attribute} per value of {@code group}: sum, avg (doubles), min, max (values). */
    public <G, V> Map<G, V> groupAggregate(Attribute<O, G> group, Attribute<O, ?> attribute, String function) {
        Source g = source(group);
        boolean numeric = function.equals("sum") || function.equals("avg");
        Source a = numeric ? numeric(attribute, function) : source(attribute);
        String alias = second(g, a);
        String expression = numeric ? "CAST(" + function + "(" + a.number(alias, views.schema()) + ") AS DOUBLE)"
                : function + "(" + a.value(alias) + ")";
        return grouped(g, group, expression, a, numeric ? (row, col) -> (V) (Double) row.getDouble(col)
                : (row, col) -> (V) a.read(row, col, attribute.getAttributeName()));
    }

    @FunctionalInterface
    private interface Cell<V> {
        V read(RowSource row, int column) throws SQLException;
    }

    @SuppressWarnings("unchecked")
    private <G, V> Map<G, V> grouped(Source g, Attribute<O, G> group, String expression, Source other,
                                     Cell<V> cell) {
        Statement sql = statement(g.value("a") + ", " + expression, g, other, " GROUP BY 1 ORDER BY 1");
        Map<G, V> out = new LinkedHashMap<>();
        List<Object[]> rows = run(sql, row -> row.isNull(0) || row.isNull(1) ? null
                : new Object[]{g.read(row, 0, group.getAttributeName()), cell.read(row, 1)});
        List<Object[]> groups = new ArrayList<>();
        for (Object[] r : rows) {
            if (r != null) {
                groups.add(r);
            }
        }
        if (g.natural() && g.type() == String.class) {
            // A VARCHAR column sorts by UTF-8 bytes; the map iterates in Java's order.
            groups.sort((x, y) -> ((String) x[0]).compareTo((String) y[0]));
        }
        for (Object[] r : groups) {
            out.put((G) r[0], (V) r[1]);
        }
        return out;
    }

    // ---------------------------------------------------------------- running

    @FunctionalInterface
    private interface RowReader<T> {
        T read(RowSource row) throws SQLException;
    }

    private <T> List<T> run(Statement statement, RowReader<T> reader) {
        String sql = statement.sql();
        List<Object> params = statement.params();
        table.checkOpen();
        Database db = table.database();
        try (PooledConnection c = db.borrow()) {
            views.ensureMacros(c);
            PreparedStatement ps = c.prepare(sql);
            try {
                for (int i = 0; i < params.size(); i++) {
                    ps.setObject(i + 1, params.get(i));
                }
                List<T> out = new ArrayList<>();
                QueryOptions call = new QueryOptions();
                if (options != null) {
                    call.put(io.quackjvm.api.DuckDBOptions.class, options);
                }
                if (!wheres.isEmpty()) {
                    call.put(io.quackjvm.api.internal.database.Statements.ORIGIN, wheres.size() == 1 ? wheres.get(0)
                            : wheres);
                }
                try (io.quackjvm.api.internal.database.Statements.Run run = table.statements().start(ps,
                        io.quackjvm.api.Operation.AGGREGATE, sql, call);
                     ResultSet rs = ps.executeQuery(); RowCursor rows = db.reader(false).open(rs)) {
                    while (rows.next()) {
                        out.add(reader.read(rows.row()));
                    }
                    run.rows(out.size());
                    run.succeeded();
                }
                return out;
            } finally {
                c.recycle(ps);
            }
        } catch (SQLException e) {
            throw Failures.wrap("Aggregating collection '" + table.name() + "'", sql, e);
        }
    }
}
