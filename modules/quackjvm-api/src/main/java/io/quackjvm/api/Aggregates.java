package io.quackjvm.api;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.Query;
import io.quackjvm.api.internal.answer.AggregateSql;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Aggregates of one collection computed by DuckDB without materialising objects, from
 * {@link DuckDBDatabase#from}: optionally restricted with {@link #where}, then {@link #count()}, {@link #sum},
 * {@link #avg}, {@link #min}, {@link #max}, {@link #countDistinct}, {@link #median}, {@link #quantile}, or grouped
 * with {@link #groupBy}.
 *
 * <pre>{@code
 * double total = db.from(cars).where(between(Car.PRICE, 5000.0, 9000.0)).sum(Car.PRICE);
 * Map<String, Double> avgByMaker = db.from(cars).groupBy(Car.MANUFACTURER).avg(Car.PRICE);
 * }</pre>
 *
 * <p><b>Which attributes.</b> An attribute is read from its {@code DuckDBIndex} table, else (the primary key) from
 * the key column, else, on a columnar collection, from the column named as the attribute when its type matches.
 * Any other attribute fails naming it and the fix (add a {@code DuckDBIndex} on it). A multi-valued attribute
 * contributes each of an object's distinct values.
 *
 * <p><b>Results match Java</b> over the same objects: counts, {@code min}, {@code max}, {@code countDistinct},
 * the quantiles and group keys are computed on the values' stored forms, which keep Java's {@code equals} and
 * {@code compareTo} exactly (so {@code -0.0} and {@code 0.0} are distinct doubles, as in Java); {@code sum} and
 * {@code avg} are computed in {@code double} by DuckDB in an order of its choosing, so they equal Java's up to
 * floating-point rounding (relative differences around 1e-12 on a million values). Objects without a value for an
 * attribute are left out of its aggregate (and of the groups when it is the group attribute), as a CQEngine query
 * on that attribute would leave them out.
 *
 * <p>Immutable: {@link #where} returns a new instance. Each method runs one SQL statement.
 *
 * @param <O> the type of the objects
 */
public final class Aggregates<O> {

    private final AggregateSql<O> sql;

    Aggregates(AggregateSql<O> sql) {
        this.sql = sql;
    }

    /**
     * Restricts to the objects matching {@code query}, translated into SQL as retrievals are. Several calls
     * combine with AND.
     *
     * @throws QuackException naming the part of the query SQL cannot answer (for example an attribute without a
     *                        {@code DuckDBIndex}, or a query type with no SQL form) and the fix
     */
    public Aggregates<O> where(Query<O> query) {
        return new Aggregates<>(sql.where(Objects.requireNonNull(query, "query")));
    }

    /**
     * With the options of this call, for example {@code with(DuckDBOptions.timeout(Duration.ofSeconds(5)))}: the
     * statement is cancelled with {@link QueryTimeoutException} once it runs longer.
     */
    public Aggregates<O> with(DuckDBOptions options) {
        return new Aggregates<>(sql.with(Objects.requireNonNull(options, "options")));
    }

    /** How many objects (match). */
    public long count() {
        return sql.count();
    }

    /** The sum of a numeric attribute's values, as a {@code double}; {@code 0.0} when there are none. */
    public double sum(Attribute<O, ? extends Number> attribute) {
        return sql.sum(attribute);
    }

    /** The average of a numeric attribute's values; empty when there are none. */
    public OptionalDouble avg(Attribute<O, ? extends Number> attribute) {
        return sql.avg(attribute);
    }

    /** The smallest value in Java's {@code compareTo} order; empty when there are none. */
    public <A extends Comparable<? super A>> Optional<A> min(Attribute<O, A> attribute) {
        return sql.extreme(attribute, "min");
    }

    /** The largest value in Java's {@code compareTo} order; empty when there are none. */
    public <A extends Comparable<? super A>> Optional<A> max(Attribute<O, A> attribute) {
        return sql.extreme(attribute, "max");
    }

    /** How many distinct values (by Java's {@code equals}). */
    public long countDistinct(Attribute<O, ?> attribute) {
        return sql.countDistinct(attribute);
    }

    /**
     * The lower median: {@code quantile(attribute, 0.5)}, a value of the data (not an average of two), so that it
     * is defined for any comparable attribute.
     */
    public <A extends Comparable<? super A>> Optional<A> median(Attribute<O, A> attribute) {
        return sql.quantile(attribute, 0.5);
    }

    /**
     * The discrete quantile {@code q} (0 to 1): with the {@code n} values sorted in Java's order, the one at
     * position {@code ceil(q * n) - 1} (the first for {@code q = 0}); empty when there are none.
     */
    public <A extends Comparable<? super A>> Optional<A> quantile(Attribute<O, A> attribute, double q) {
        return sql.quantile(attribute, q);
    }

    /** Groups the objects by the values of {@code group}; each aggregate then returns a map keyed by the value. */
    public <G> GroupedAggregates<O, G> groupBy(Attribute<O, G> group) {
        sql.checkVisible(Objects.requireNonNull(group, "group"));
        return new GroupedAggregates<>(sql, group);
    }
}
