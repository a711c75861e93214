package io.quackjvm.api.internal;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.spi.RowSource;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;

/**
 * The SQL of a typed join between two collections of one database: the pairs of objects whose join attributes
 * share at least one value, each pair once (two multi-valued attributes sharing two values still make one pair),
 * restricted on either side by a query translated with {@link QuerySql} (what it cannot translate is filtered in
 * Java on the joined objects). One statement: the key pairs are joined on the visible values
 * ({@link Visible}), then both objects are read by key. Immutable; each use runs one statement.
 *
 * @param <L> the left object type
 * @param <R> the right object type
 */
public final class JoinSql<L, R> {

    private final CollectionTable<L, ?> left;
    private final CollectionTable<R, ?> right;
    private final QuerySql.Translation<L> leftWhere;
    private final QuerySql.Translation<R> rightWhere;
    private final String pairs;
    private final List<Object> params;

    /**
     * @throws IllegalArgumentException naming the attribute and how to make it visible when DuckDB cannot see a
     *                                  join attribute, or when the two store their values differently
     */
    public JoinSql(CollectionTable<L, ?> left, Attribute<L, ?> leftAttribute, Query<L> leftQuery,
                   CollectionTable<R, ?> right, Attribute<R, ?> rightAttribute, Query<R> rightQuery) {
        this.left = left;
        this.right = right;
        Visible lv = visible(left, leftAttribute, "left");
        Visible rv = visible(right, rightAttribute, "right");
        if (!lv.encoding().equals(rv.encoding())) {
            throw new IllegalArgumentException("Cannot join " + lv.describe() + " of collection '" + left.name()
                    + "' with " + rv.describe() + " of collection '" + right.name() + "': their values are stored "
                    + "differently (" + lv.encoding() + " and " + rv.encoding() + "), so no value of one can equal a "
                    + "value of the other; join attributes of the same type, both indexed or both columnar fields");
        }
        QueryOptions options = new QueryOptions();
        this.leftWhere = leftQuery == null ? null : QuerySql.translate(left, leftQuery, options);
        this.rightWhere = rightQuery == null ? null : QuerySql.translate(right, rightQuery, options);
        List<Object> p = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        if (!lv.singleValued() || !rv.singleValued()) {
            sql.append("DISTINCT ");
        }
        String k = CollectionSchema.KEY;
        sql.append("lv.").append(k).append(" AS lk, rv.").append(k).append(" AS rk FROM ").append(lv.from())
                .append(" lv JOIN ").append(rv.from()).append(" rv ON lv.").append(lv.value()).append(" = rv.")
                .append(rv.value());
        String and = " WHERE ";
        if (leftWhere != null && leftWhere.keysSql() != null) {
            sql.append(and).append("lv.").append(k).append(" IN (").append(leftWhere.keysSql()).append(')');
            p.addAll(leftWhere.params());
            and = " AND ";
        }
        if (rightWhere != null && rightWhere.keysSql() != null) {
            sql.append(and).append("rv.").append(k).append(" IN (").append(rightWhere.keysSql()).append(')');
            p.addAll(rightWhere.params());
        }
        this.pairs = sql.toString();
        this.params = List.copyOf(p);
    }

    private static <O> Visible visible(CollectionTable<O, ?> table, Attribute<O, ?> attribute, String side) {
        Visible v = Visible.of(table, attribute);
        if (v == null) {
            throw new IllegalArgumentException("Cannot join on " + Visible.howToSee(attribute) + " (the " + side
                    + " collection '" + table.name() + "')");
        }
        return v;
    }

    private boolean complete() {
        return (leftWhere == null || leftWhere.complete()) && (rightWhere == null || rightWhere.complete());
    }

    /** The number of pairs. */
    public long count() {
        left.checkOpen();
        right.checkOpen();
        if (!complete()) {
            long n = 0;
            try (CloseableIterator<Object> it = iterator((l, r) -> Boolean.TRUE)) {
                while (it.hasNext()) {
                    it.next();
                    n++;
                }
            }
            return n;
        }
        return left.queryLong(new QueryOptions(), "SELECT count(*) FROM (" + pairs + ")", params);
    }

    /**
     * A cursor over the pairs, each made into a value by {@code pair}. It holds a connection until it is
     * exhausted or closed, and is released when the database closes (using it afterwards throws
     * {@code PersistenceClosedException}).
     */
    public <T> CloseableIterator<T> iterator(BiFunction<L, R, T> pair) {
        left.checkOpen();
        right.checkOpen();
        int leftColumns = left.columnCount();
        String sql = "SELECT " + left.sqlColumns("l") + ", " + right.sqlColumns("r") + " FROM (" + pairs + ") p JOIN "
                + left.sqlName() + " l ON l." + CollectionSchema.KEY + " = p.lk JOIN " + right.sqlName() + " r ON r."
                + CollectionSchema.KEY + " = p.rk";
        QueryOptions options = new QueryOptions();
        Query<L> leftResidual = leftWhere == null ? null : leftWhere.residual();
        Query<R> rightResidual = rightWhere == null ? null : rightWhere.residual();
        CloseableIterator<Object[]> rows = left.query(options, sql, params, true, (l, row) -> new Object[]{l,
                right.readObject(new Offset(row, leftColumns))});
        return new CloseableIterator<>() {
            private T next;

            @Override
            @SuppressWarnings("unchecked")
            public boolean hasNext() {
                while (next == null && rows.hasNext()) {
                    Object[] r = rows.next();
                    L l = (L) r[0];
                    R o = (R) r[1];
                    if ((leftResidual == null || leftResidual.matches(l, options))
                            && (rightResidual == null || rightResidual.matches(o, options))) {
                        next = pair.apply(l, o);
                    }
                }
                return next != null;
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                T t = next;
                next = null;
                return t;
            }

            @Override
            public void close() {
                rows.close();
            }
        };
    }

    /** The columns of a row from {@code offset} on, as a row of their own. */
    private record Offset(RowSource row, int offset) implements RowSource {
        @Override public boolean isNull(int c) throws SQLException { return row.isNull(c + offset); }
        @Override public boolean getBoolean(int c) throws SQLException { return row.getBoolean(c + offset); }
        @Override public int getInt(int c) throws SQLException { return row.getInt(c + offset); }
        @Override public long getLong(int c) throws SQLException { return row.getLong(c + offset); }
        @Override public double getDouble(int c) throws SQLException { return row.getDouble(c + offset); }
        @Override public String getString(int c) throws SQLException { return row.getString(c + offset); }
        @Override public byte[] getBytes(int c) throws SQLException { return row.getBytes(c + offset); }
        @Override public Object getObject(int c) throws SQLException { return row.getObject(c + offset); }
    }
}
