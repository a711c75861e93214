package io.quackjvm.api;

import com.googlecode.cqengine.attribute.Attribute;
import io.quackjvm.api.internal.answer.AggregateSql;

import java.util.Map;

/**
 * Aggregates per value of a group attribute, from {@link Aggregates#groupBy}. Each method runs one
 * {@code GROUP BY} and returns a map from each group value to its aggregate, iterating in the group values'
 * Java order. An object is in the group of each of its values of the group attribute; an object without one is
 * in no group. A group appears in the map of an aggregate of attribute {@code a} only when one of its objects
 * has a value of {@code a}. Same precision rules as {@link Aggregates}.
 *
 * @param <O> the type of the objects
 * @param <G> the type of the group values
 */
public final class GroupedAggregates<O, G> {

    private final AggregateSql<O> sql;
    private final Attribute<O, G> group;

    GroupedAggregates(AggregateSql<O> sql, Attribute<O, G> group) {
        this.sql = sql;
        this.group = group;
    }

    /** How many objects are in each group. */
    public Map<G, Long> count() {
        return sql.groupCount(group);
    }

    /** The sum of a numeric attribute per group. */
    public Map<G, Double> sum(Attribute<O, ? extends Number> attribute) {
        return sql.groupAggregate(group, attribute, "sum");
    }

    /** The average of a numeric attribute per group. */
    public Map<G, Double> avg(Attribute<O, ? extends Number> attribute) {
        return sql.groupAggregate(group, attribute, "avg");
    }

    /** The smallest value of {@code attribute} per group, in Java's order. */
    public <A extends Comparable<? super A>> Map<G, A> min(Attribute<O, A> attribute) {
        return sql.groupAggregate(group, attribute, "min");
    }

    /** The largest value of {@code attribute} per group, in Java's order. */
    public <A extends Comparable<? super A>> Map<G, A> max(Attribute<O, A> attribute) {
        return sql.groupAggregate(group, attribute, "max");
    }
}
