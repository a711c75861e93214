package io.quackjvm.it.query;

import com.googlecode.cqengine.attribute.MultiValueAttribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.attribute.SimpleNullableAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.List;

/**
 * A car for the query and join tests: fields named as their attributes, so the columnar layout makes the
 * Integer/Long/Boolean/String ones visible to DuckDB without an index; {@code rating} (a double) only through a
 * DuckDBIndex; {@link #MILEAGE_BAND} never (a computed attribute, always Java's). While {@link #strict} is set,
 * evaluating any attribute in Java throws: a query that runs under it was answered by DuckDB alone.
 */
public record Auto(int id, String maker, int dealerId, long price, boolean used, String color, double rating,
                   int mileage, List<String> tags) {

    static volatile boolean strict;

    private static <T> T check(T value) {
        if (strict) {
            throw new IllegalStateException("attribute evaluated in Java while strict");
        }
        return value;
    }

    public static final SimpleAttribute<Auto, Integer> ID = new SimpleAttribute<>(Auto.class, Integer.class, "id") {
        @Override public Integer getValue(Auto o, QueryOptions q) { return check(o.id); }
    };
    public static final SimpleAttribute<Auto, String> MAKER = new SimpleAttribute<>(Auto.class, String.class, "maker") {
        @Override public String getValue(Auto o, QueryOptions q) { return check(o.maker); }
    };
    public static final SimpleAttribute<Auto, Integer> DEALER = new SimpleAttribute<>(Auto.class, Integer.class, "dealerId") {
        @Override public Integer getValue(Auto o, QueryOptions q) { return check(o.dealerId); }
    };
    public static final SimpleAttribute<Auto, Long> PRICE = new SimpleAttribute<>(Auto.class, Long.class, "price") {
        @Override public Long getValue(Auto o, QueryOptions q) { return check(o.price); }
    };
    public static final SimpleAttribute<Auto, Boolean> USED = new SimpleAttribute<>(Auto.class, Boolean.class, "used") {
        @Override public Boolean getValue(Auto o, QueryOptions q) { return check(o.used); }
    };
    public static final SimpleNullableAttribute<Auto, String> COLOR = new SimpleNullableAttribute<>(Auto.class, String.class, "color") {
        @Override public String getValue(Auto o, QueryOptions q) { return check(o.color); }
    };
    public static final SimpleAttribute<Auto, Double> RATING = new SimpleAttribute<>(Auto.class, Double.class, "rating") {
        @Override public Double getValue(Auto o, QueryOptions q) { return check(o.rating); }
    };
    public static final MultiValueAttribute<Auto, String> TAGS = new MultiValueAttribute<>(Auto.class, String.class, "tags") {
        @Override public Iterable<String> getValues(Auto o, QueryOptions q) { return check(o.tags); }
    };
    /** Computed: never visible to DuckDB. */
    public static final SimpleAttribute<Auto, Integer> MILEAGE_BAND = new SimpleAttribute<>(Auto.class, Integer.class, "mileageBand") {
        @Override public Integer getValue(Auto o, QueryOptions q) { return check(o.mileage / 10_000); }
    };
}
