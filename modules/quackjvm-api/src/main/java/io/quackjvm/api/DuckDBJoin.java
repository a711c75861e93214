package io.quackjvm.api;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.Query;
import io.quackjvm.api.internal.answer.JoinSql;

import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A typed join of two collections of one {@link DuckDBDatabase}, run by DuckDB as one statement.
 *
 * <pre>{@code
 * try (Stream<Joined<Car, Dealer>> pairs = db.join(cars, dealers)
 *         .on(Car.DEALER_ID, Dealer.DEALER_ID)
 *         .whereLeft(equal(Car.COLOR, "red"))
 *         .whereRight(equal(Dealer.CITY, "Paris"))
 *         .stream()) {
 *     pairs.forEach(p -> ...);
 * }
 * }</pre>
 *
 * <p>A pair is a left object and a right object whose join attributes share at least one value. Each pair comes
 * once, also for multi-valued attributes sharing several values (as a hash join over distinct values that emits
 * each pair once would). Join attributes must be visible to DuckDB: a {@code DuckDBIndex} on the attribute, the
 * primary key, or a columnar field of the same name (Integer, Long, Short, Byte, Boolean or String); both sides
 * must store values alike (for example both of one type). {@link #whereLeft} and {@link #whereRight} take any
 * query: what DuckDB can evaluate restricts the join in SQL, the rest is filtered in Java on the joined objects.
 * The order of the pairs is unspecified.
 *
 * <p>Immutable: each method returns a new join. Thread-safe.
 *
 * @param <L> the left object type
 * @param <R> the right object type
 */
public final class DuckDBJoin<L, R> {

    private final DuckDBPersistence<L, ?> left;
    private final DuckDBPersistence<R, ?> right;
    private final Attribute<L, ?> leftAttribute;
    private final Attribute<R, ?> rightAttribute;
    private final Query<L> leftQuery;
    private final Query<R> rightQuery;
    /** The call's own options, or {@code null}. */
    private final DuckDBOptions options;

    DuckDBJoin(DuckDBPersistence<L, ?> left, DuckDBPersistence<R, ?> right, Attribute<L, ?> leftAttribute,
               Attribute<R, ?> rightAttribute, Query<L> leftQuery, Query<R> rightQuery) {
        this(left, right, leftAttribute, rightAttribute, leftQuery, rightQuery, null);
    }

    private DuckDBJoin(DuckDBPersistence<L, ?> left, DuckDBPersistence<R, ?> right, Attribute<L, ?> leftAttribute,
                       Attribute<R, ?> rightAttribute, Query<L> leftQuery, Query<R> rightQuery, DuckDBOptions options) {
        this.options = options;
        this.left = left;
        this.right = right;
        this.leftAttribute = leftAttribute;
        this.rightAttribute = rightAttribute;
        this.leftQuery = leftQuery;
        this.rightQuery = rightQuery;
    }

    /**
     * Joins on these attributes: a left and a right object pair up when the left attribute and the right one share
     * a value.
     *
     * @throws IllegalArgumentException naming the attribute and how to make it visible when DuckDB cannot see it,
     *                                  or when the two attributes store their values differently
     */
    public <A> DuckDBJoin<L, R> on(Attribute<L, A> leftAttribute, Attribute<R, A> rightAttribute) {
        Objects.requireNonNull(leftAttribute, "leftAttribute");
        Objects.requireNonNull(rightAttribute, "rightAttribute");
        DuckDBJoin<L, R> join = new DuckDBJoin<>(left, right, leftAttribute, rightAttribute, leftQuery, rightQuery,
                options);
        join.sql();   // validates now, with the attribute named
        return join;
    }

    /** Keeps only pairs whose left object matches {@code query}. */
    public DuckDBJoin<L, R> whereLeft(Query<L> query) {
        return new DuckDBJoin<>(left, right, leftAttribute, rightAttribute, Objects.requireNonNull(query, "query"),
                rightQuery, options);
    }

    /** Keeps only pairs whose right object matches {@code query}. */
    public DuckDBJoin<L, R> whereRight(Query<R> query) {
        return new DuckDBJoin<>(left, right, leftAttribute, rightAttribute, leftQuery,
                Objects.requireNonNull(query, "query"), options);
    }

    /**
     * With the options of this call, for example {@code with(DuckDBOptions.timeout(Duration.ofSeconds(5)))}: a
     * statement of the join that runs longer is cancelled with {@link QueryTimeoutException} (for
     * {@link #stream}, until its first pairs are ready).
     */
    public DuckDBJoin<L, R> with(DuckDBOptions options) {
        return new DuckDBJoin<>(left, right, leftAttribute, rightAttribute, leftQuery, rightQuery,
                Objects.requireNonNull(options, "options"));
    }

    /**
     * The pairs, streamed from DuckDB. The stream holds a connection until it is exhausted or closed: use it in
     * try-with-resources. Closing the database releases it; reading it afterwards throws
     * {@link PersistenceClosedException}.
     *
     * @throws IllegalStateException      when {@link #on} was not called
     * @throws PersistenceClosedException when either collection or the database is closed
     */
    public Stream<Joined<L, R>> stream() {
        CloseableIterator<Joined<L, R>> it = sql().iterator(Joined::new);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(it::close);
    }

    /**
     * The number of pairs; one count in DuckDB when both restrictions are wholly translatable.
     *
     * @throws IllegalStateException      when {@link #on} was not called
     * @throws PersistenceClosedException when either collection or the database is closed
     */
    public long count() {
        return sql().count();
    }

    private JoinSql<L, R> sql() {
        if (leftAttribute == null) {
            throw new IllegalStateException("Call on(leftAttribute, rightAttribute) before running the join of '"
                    + left.getTableName() + "' and '" + right.getTableName() + "'");
        }
        left.table().checkOpen();
        right.table().checkOpen();
        return new JoinSql<>(left.table(), leftAttribute, leftQuery, right.table(), rightAttribute, rightQuery,
                options);
    }

    @Override
    public String toString() {
        return "DuckDBJoin{" + left.getTableName() + " " + (leftAttribute == null ? "?" : leftAttribute
                .getAttributeName()) + " = " + right.getTableName() + " " + (rightAttribute == null ? "?"
                : rightAttribute.getAttributeName()) + (leftQuery == null ? "" : ", left " + leftQuery)
                + (rightQuery == null ? "" : ", right " + rightQuery) + "}";
    }
}
