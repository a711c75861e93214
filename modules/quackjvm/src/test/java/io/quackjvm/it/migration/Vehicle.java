package io.quackjvm.it.migration;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

/** The objects of the migration tests: a record, so that the columnar layout can store it too. */
public record Vehicle(Integer id, String maker, String model, double price, int year) {

    public static final SimpleAttribute<Vehicle, Integer> ID = new SimpleAttribute<>(Vehicle.class, Integer.class, "id") {
        @Override
        public Integer getValue(Vehicle v, QueryOptions queryOptions) {
            return v.id;
        }
    };

    /** Another attribute, of another name: the wrong primary key for a file keyed on {@link #ID}. */
    public static final SimpleAttribute<Vehicle, Integer> YEAR = new SimpleAttribute<>(Vehicle.class, Integer.class, "year") {
        @Override
        public Integer getValue(Vehicle v, QueryOptions queryOptions) {
            return v.year;
        }
    };

    public static final SimpleAttribute<Vehicle, String> MAKER = new SimpleAttribute<>(Vehicle.class, String.class, "maker") {
        @Override
        public String getValue(Vehicle v, QueryOptions queryOptions) {
            return v.maker;
        }
    };

    public static final SimpleAttribute<Vehicle, Double> PRICE = new SimpleAttribute<>(Vehicle.class, Double.class, "price") {
        @Override
        public Double getValue(Vehicle v, QueryOptions queryOptions) {
            return v.price;
        }
    };
}
