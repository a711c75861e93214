package io.quackjvm.api.internal.answer;

import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.query.QuerySql;
import io.quackjvm.api.internal.query.Visible;

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

    /** The call's own options (its timeout), or {@code null}. */
    private final io.quackjvm.api.DuckDBOptions callOptions;

    private final CollectionTable<L, ?> left;
    private final CollectionTable<R, ?> right;
    private final QuerySql.Translation<L> leftWhere;
    private final QuerySql.Translation<R> rightWhere;
    private final Visible lv;
    private final Visible rv;
    /** The pairs of keys, distinct when an attribute is multi-valued. */
    private final String pairs;
    /** The restrictions on {@code lv} and {@code rv}, from " WHERE" on, or empty. */
    private final String where;
    private final List<Object> params;
    /** The join condition of the value relations {@code lv} and {@code rv}: Java's equality of their values. */
    private final String valuesMeet;

    /**
     * @throws IllegalArgumentException naming the attribute and how to make it visible when DuckDB cannot see a
     *                                  join attribute, or when the two store their values differently
     */
    public JoinSql(CollectionTable<L, ?> left, Attribute<L, ?> leftAttribute, Query<L> leftQuery,
                   CollectionTable<R, ?> right, Attribute<R, ?> rightAttribute, Query<R> rightQuery,
                   io.quackjvm.api.DuckDBOptions callOptions) {
        this.callOptions = callOptions;
        this.left = left;
        this.right = right;
        this.lv = visible(left, leftAttribute, "left");
        this.rv = visible(right, rightAttribute, "right");
        String[] meet = Visible.comparable(lv, "lv.", rv, "rv.");
        if (meet == null) {
            throw new IllegalArgumentException("Cannot join " + lv.describe() + " of collection '" + left.name()
                    + "' with " + rv.describe() + " of collection '" + right.name() + "': their values ("
                    + lv.javaType().getName() + " and " + rv.javaType().getName() + ") are stored in forms SQL "
                    + "cannot compare with Java's equals (" + lv.encoding() + " and " + rv.encoding() + "); join "
                    + "attributes of the same type, and for Double or Float both indexed or both columns");
        }
        this.valuesMeet = meet[0] + " = " + meet[1];
        QueryOptions options = new QueryOptions();
        this.leftWhere = leftQuery == null ? null : QuerySql.translate(left, leftQuery, options);
        this.rightWhere = rightQuery == null ? null : QuerySql.translate(right, rightQuery, options);
        List<Object> p = new ArrayList<>();
        StringBuilder restrict = new StringBuilder();
        String k = CollectionSchema.KEY;
        String and = " WHERE ";
        if (leftWhere != null && leftWhere.keysSql() != null) {
            restrict.append(and).append("lv.").append(k).append(" IN (").append(leftWhere.keysSql()).append(')');
            p.addAll(leftWhere.params());
            and = " AND ";
        }
        if (rightWhere != null && rightWhere.keysSql() != null) {
            restrict.append(and).append("rv.").append(k).append(" IN (").append(rightWhere.keysSql()).append(')');
            p.addAll(rightWhere.params());
        }
        this.where = restrict.toString();
        this.pairs = "SELECT " + (distinct() ? "DISTINCT " : "") + "lv." + k + " AS lk, rv." + k + " AS rk FROM "
                + lv.from() + " lv JOIN " + rv.from() + " rv ON " + valuesMeet + where;
        this.params = List.copyOf(p);
    }

    /** Whether a pair can come from several shared values, so that the key pairs must be made distinct. */
    private boolean distinct() {
        return !lv.singleValued() || !rv.singleValued();
    }


    /**
     * The statement reading both objects of each pair. With single-valued attributes it is one flat join of the
     * object tables with the value relations, which DuckDB plans with the smaller sides as hash tables and the
     * larger object table scanned as the pairs stream out: the first pairs come without computing the whole join.
     * (Joining the object tables to a subquery of key pairs instead made DuckDB hash a whole object table before
     * the first pair.) With a multi-valued attribute the distinct key pairs must all be known before the first
     * one, and the objects are read by key from them.
     */
    private String objectsSql() {
        String k = CollectionSchema.KEY;
        String leftTable = left.schema().sqlName();
        String rightTable = right.schema().sqlName();
        if (distinct()) {
            return "SELECT " + left.columns().qualified("l") + ", " + right.columns().qualified("r")
                    + " FROM (" + pairs + ") p JOIN " + leftTable + " l ON l." + k + " = p.lk JOIN " + rightTable
                    + " r ON r." + k + " = p.rk";
        }
        boolean leftInline = lv.from().equals(leftTable);
        boolean rightInline = rv.from().equals(rightTable);
        String from = leftInline ? leftTable + " lv"
                : leftTable + " l JOIN " + lv.from() + " lv ON lv." + k + " = l." + k;
        from += " JOIN " + rv.from() + " rv ON " + valuesMeet;
        if (!rightInline) {
            from += " JOIN " + rightTable + " r ON r." + k + " = rv." + k;
        }
        return "SELECT " + left.columns().qualified(leftInline ? "lv" : "l") + ", "
                + right.columns().qualified(rightInline ? "rv" : "r") + " FROM " + from + where;
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
    /** Query options carrying the call's own options. */
    private QueryOptions options() {
        QueryOptions options = new QueryOptions();
        if (callOptions != null) {
            options.put(io.quackjvm.api.DuckDBOptions.class, callOptions);
        }
        return options;
    }

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
        return left.statements().queryLong(options(), "SELECT count(*) FROM (" + pairs + ")", params,
                io.quackjvm.api.Operation.AGGREGATE);
    }

    /**
     * A cursor over the pairs, each made into a value by {@code pair}. It holds a connection until it is
     * exhausted or closed, and is released when the database closes (using it afterwards throws
     * {@code PersistenceClosedException}).
     */
    public <T> CloseableIterator<T> iterator(BiFunction<L, R, T> pair) {
        left.checkOpen();
        right.checkOpen();
        int leftColumns = left.columns().count();
        String sql = objectsSql();
        QueryOptions options = options();
        Query<L> leftResidual = leftWhere == null ? null : leftWhere.residual();
        Query<R> rightResidual = rightWhere == null ? null : rightWhere.residual();
        CloseableIterator<Object[]> rows = left.reads().query(options, sql, params, true, (l, row) -> new Object[]{l,
                right.columns().readObject(new Offset(row, leftColumns))});
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
