package io.quackjvm.api.internal;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.ValueType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

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
    /** The SELECTs of the keys of the objects each {@code where} matches. */
    private final List<String> whereSql;
    private final List<Object> whereParams;

    private AggregateSql(CollectionTable<O, ?> table, SqlViews views, List<String> whereSql, List<Object> whereParams) {
        this.table = table;
        this.views = views;
        this.whereSql = whereSql;
        this.whereParams = whereParams;
    }

    public static <O> AggregateSql<O> of(CollectionTable<O, ?> table, SqlViews views) {
        return new AggregateSql<>(table, views, List.of(), List.of());
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
        List<Object> params = new ArrayList<>(whereParams);
        params.addAll(t.params());
        List<String> sql = new ArrayList<>(whereSql);
        sql.add(t.keysSql());
        return new AggregateSql<>(table, views, List.copyOf(sql), List.copyOf(params));
    }

    /** Where an attribute's values are, and in which form. */
    record Source(String relation, String column, ValueType<?> encoded, Class<?> type, boolean natural) {

        String value(String alias) {
            return alias + "." + column;
        }

        /** The value as a number SQL can add. */
        String number(String alias) {
            return encoded == null ? value(alias) : SqlDecode.expression(encoded, value(alias), SqlViews.SCHEMA);
        }

        /** Reads the value at {@code column} of a row into the attribute's Java type. */
        Object read(RowSource row, int col, String attribute) throws SQLException {
            Object v = row.getObject(col);
            if (v == null) {
                return null;
            }
            return encoded != null ? encoded.decode(v) : SqlValues.convert(v, type, attribute);
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
     * The source of {@code attribute}'s values. A columnar field of the attribute's name and type is read directly
     * (no join with an index table) when its DuckDB order and equality are Java's (integers, booleans, dates,
     * enums), or when {@code approximate} (a sum or average, computed in floating point anyway); otherwise the
     * attribute's index table, whose stored forms keep Java's order and equality, is preferred.
     */
    Source source(Attribute<O, ?> attribute, boolean approximate) {
        String name = attribute.getAttributeName();
        Class<?> type = attribute.getAttributeType();
        boolean exactColumn = approximate || type == Integer.class || type == Long.class || type == Short.class
                || type == Byte.class || type == Boolean.class || type == LocalDate.class || type.isEnum();
        Source column = column(attribute);
        if (column != null && exactColumn) {
            return column;
        }
        for (IndexTable<O, ?> index : table.indexTables()) {
            if (index.attribute().getAttributeName().equals(name)) {
                return new Source(index.sqlName(), "value", index.valueType(), index.valueType().javaType(), false);
            }
        }
        if (table.primaryKey().getAttributeName().equals(name)) {
            return new Source(table.sqlName(), CollectionSchema.KEY, table.keyType().valueType(),
                    table.keyType().javaType, false);
        }
        if (column != null) {
            return column;
        }
        throw new QuackException("Attribute '" + name + "' of collection '" + table.name() + "' is not visible to SQL: "
                + "it has no DuckDBIndex" + (table.layoutName().equals("blob") ? "" : " and no column of its name and "
                + "type") + ". Add one with collection.addIndex(DuckDBIndex.onAttribute(...)) on that attribute, "
                + "which stores its values in a table SQL reads" + (table.layoutName().equals("blob") ? "" : ", or "
                + "name the attribute after its field"));
    }

    /** The typed column of the object table named as {@code attribute} and holding its type, or {@code null}. */
    private Source column(Attribute<O, ?> attribute) {
        for (Column c : table.layoutColumns()) {
            if (c.name().equalsIgnoreCase(attribute.getAttributeName())
                    && naturalType(attribute.getAttributeType(), c.sqlType())) {
                return new Source(table.sqlName(), CollectionSchema.quote(c.name()), null,
                        attribute.getAttributeType(), true);
            }
        }
        return null;
    }

    /** Whether a column of DuckDB type {@code sqlType} holds {@code type}'s values as they are. */
    private static boolean naturalType(Class<?> type, String sqlType) {
        String t = sqlType.toUpperCase(Locale.ROOT);
        if (type.isEnum()) {
            return t.startsWith("ENUM");
        }
        String expected = type == Double.class ? "DOUBLE" : type == Float.class ? "FLOAT"
                : type == Integer.class ? "INTEGER" : type == Long.class ? "BIGINT" : type == Short.class ? "SMALLINT"
                : type == Byte.class ? "TINYINT" : type == Boolean.class ? "BOOLEAN" : type == String.class ? "VARCHAR"
                : type == LocalDate.class ? "DATE" : null;
        return t.equals(expected);
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

    /** {@code FROM ... WHERE ...} over the given sources, the first one's alias {@code a}, the second {@code b}. */
    private String from(Source a, Source b) {
        StringBuilder sql = new StringBuilder(" FROM ").append(a.relation()).append(" a");
        List<String> conditions = new ArrayList<>();
        boolean join = b != null && !b.relation().equals(a.relation());
        if (join) {
            sql.append(" JOIN ").append(b.relation()).append(" b ON b._key = a._key");
        }
        if (a.natural()) {
            conditions.add(a.value("a") + " IS NOT NULL");
        }
        if (b != null && b.natural()) {
            conditions.add(b.value(join ? "b" : "a") + " IS NOT NULL");
        }
        for (String keys : whereSql) {
            conditions.add("a._key IN (" + keys + ")");
        }
        if (!conditions.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", conditions));
        }
        return sql.toString();
    }

    /** The alias of the second source in {@link #from}. */
    private static String second(Source a, Source b) {
        return b.relation().equals(a.relation()) ? "a" : "b";
    }

    // ---------------------------------------------------------------- aggregates

    public long count() {
        Source objects = new Source(table.sqlName(), CollectionSchema.KEY, null, Object.class, false);
        return run("SELECT count(*)" + from(objects, null), (row) -> row.getLong(0)).get(0);
    }

    public double sum(Attribute<O, ?> attribute) {
        Source s = numeric(attribute, "sum");
        List<Double> v = run("SELECT CAST(sum(" + s.number("a") + ") AS DOUBLE)" + from(s, null),
                row -> row.isNull(0) ? 0.0 : row.getDouble(0));
        return v.get(0);
    }

    public OptionalDouble avg(Attribute<O, ?> attribute) {
        Source s = numeric(attribute, "avg");
        List<Double> v = run("SELECT avg(" + s.number("a") + ")" + from(s, null),
                row -> row.isNull(0) ? null : row.getDouble(0));
        return v.get(0) == null ? OptionalDouble.empty() : OptionalDouble.of(v.get(0));
    }

    public <A> Optional<A> extreme(Attribute<O, A> attribute, String function) {
        Source s = source(attribute);
        return single("SELECT " + function + "(" + s.value("a") + ")" + from(s, null), s, attribute);
    }

    public long countDistinct(Attribute<O, ?> attribute) {
        Source s = source(attribute);
        return run("SELECT count(DISTINCT " + s.value("a") + ")" + from(s, null), row -> row.getLong(0)).get(0);
    }

    public <A> Optional<A> quantile(Attribute<O, A> attribute, double q) {
        if (!(q >= 0.0 && q <= 1.0)) {
            throw new IllegalArgumentException("quantile(" + attribute.getAttributeName() + ", " + q + "): q must be "
                    + "between 0 and 1");
        }
        Source s = source(attribute);
        return single("SELECT quantile_disc(" + s.value("a") + ", " + q + ")" + from(s, null), s, attribute);
    }

    @SuppressWarnings("unchecked")
    private <A> Optional<A> single(String sql, Source s, Attribute<O, A> attribute) {
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
        String expression = numeric ? "CAST(" + function + "(" + a.number(alias) + ") AS DOUBLE)"
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
        String sql = "SELECT " + g.value("a") + ", " + expression + from(g, other) + " GROUP BY 1 ORDER BY 1";
        Map<G, V> out = new LinkedHashMap<>();
        List<Object[]> rows = run(sql, row -> new Object[]{g.read(row, 0, group.getAttributeName()),
                cell.read(row, 1)});
        for (Object[] r : rows) {
            out.put((G) r[0], (V) r[1]);
        }
        return out;
    }

    // ---------------------------------------------------------------- running

    @FunctionalInterface
    private interface RowReader<T> {
        T read(RowSource row) throws SQLException;
    }

    private <T> List<T> run(String sql, RowReader<T> reader) {
        table.checkOpen();
        Database db = table.database();
        try (PooledConnection c = db.borrow()) {
            views.ensureMacros(c);
            PreparedStatement ps = c.prepare(sql);
            try {
                for (int i = 0; i < whereParams.size(); i++) {
                    ps.setObject(i + 1, whereParams.get(i));
                }
                List<T> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery(); RowCursor rows = db.reader(false).open(rs)) {
                    while (rows.next()) {
                        out.add(reader.read(rows.row()));
                    }
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
