package io.quackjvm.moduletests.model;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

/** A spare part: the record the module-path tests store, with explicit attribute types (no typetools). */
public record Part(long id, String name, String maker, double price, int stock) {

    public static final SimpleAttribute<Part, Long> ID = new SimpleAttribute<>(Part.class, Long.class, "id") {
        @Override
        public Long getValue(Part part, QueryOptions queryOptions) {
            return part.id();
        }
    };

    public static final SimpleAttribute<Part, String> MAKER = new SimpleAttribute<>(Part.class, String.class, "maker") {
        @Override
        public String getValue(Part part, QueryOptions queryOptions) {
            return part.maker();
        }
    };

    public static final SimpleAttribute<Part, Double> PRICE = new SimpleAttribute<>(Part.class, Double.class, "price") {
        @Override
        public Double getValue(Part part, QueryOptions queryOptions) {
            return part.price();
        }
    };

    /** A deterministic part number {@code i}: makers cycle through four names, prices through 0..99.5. */
    public static Part of(long i) {
        String[] makers = {"Acme", "Bolt & Co", "Cogworks", "Dyna"};
        return new Part(i, "part-" + i, makers[(int) (i % 4)], (i * 7 % 200) / 2.0, (int) (i % 13));
    }
}
