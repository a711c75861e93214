package io.quackjvm.micrometer;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

/** A car, stored with the columnar layout in the tests of this module. */
public record Car(int carId, String manufacturer, double price) {

    static final String[] MAKERS = {"Ford", "Honda", "Toyota", "BMW", "Fiat"};

    public static final SimpleAttribute<Car, Integer> CAR_ID =
            new SimpleAttribute<>(Car.class, Integer.class, "carId") {
                @Override
                public Integer getValue(Car car, QueryOptions queryOptions) {
                    return car.carId;
                }
            };

    public static final SimpleAttribute<Car, String> MANUFACTURER =
            new SimpleAttribute<>(Car.class, String.class, "manufacturer") {
                @Override
                public String getValue(Car car, QueryOptions queryOptions) {
                    return car.manufacturer;
                }
            };

    /** Car {@code id}: its maker is one of five in turn, so each maker has a fifth of the cars. */
    static Car of(int id) {
        return new Car(id, MAKERS[id % MAKERS.length], 1_000.0 + id);
    }
}
