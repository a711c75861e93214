package io.quackjvm.it.query;

import com.googlecode.cqengine.attribute.MultiValueAttribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.List;

/** A dealer for the existsIn and join tests: {@code brands} is multi-valued (joins on it meet {@link Auto#MAKER}). */
public record Dealer(int id, String name, String city, int stars, List<String> brands) {

    public static final SimpleAttribute<Dealer, Integer> ID = new SimpleAttribute<>(Dealer.class, Integer.class, "id") {
        @Override public Integer getValue(Dealer o, QueryOptions q) { return o.id; }
    };
    public static final SimpleAttribute<Dealer, String> CITY = new SimpleAttribute<>(Dealer.class, String.class, "city") {
        @Override public String getValue(Dealer o, QueryOptions q) { return o.city; }
    };
    public static final SimpleAttribute<Dealer, Integer> STARS = new SimpleAttribute<>(Dealer.class, Integer.class, "stars") {
        @Override public Integer getValue(Dealer o, QueryOptions q) { return o.stars; }
    };
    public static final MultiValueAttribute<Dealer, String> BRANDS = new MultiValueAttribute<>(Dealer.class, String.class, "brands") {
        @Override public Iterable<String> getValues(Dealer o, QueryOptions q) { return o.brands; }
    };
    /** Computed: never visible to DuckDB. */
    public static final SimpleAttribute<Dealer, Integer> NAME_LENGTH = new SimpleAttribute<>(Dealer.class, Integer.class, "nameLength") {
        @Override public Integer getValue(Dealer o, QueryOptions q) { return o.name.length(); }
    };
}
