package io.quackjvm.spark;

import com.googlecode.cqengine.attribute.SimpleAttribute;

import static com.googlecode.cqengine.query.QueryFactory.attribute;

/** A car of the tests: a plain record, with the attributes CQEngine and quackjvm read it by. */
public record Car(int carId, String manufacturer, String model, int doors, double price) {

    public static final SimpleAttribute<Car, Integer> CAR_ID = attribute("carId", Car::carId);
    public static final SimpleAttribute<Car, String> MANUFACTURER = attribute("manufacturer", Car::manufacturer);
    public static final SimpleAttribute<Car, String> MODEL = attribute("model", Car::model);
    public static final SimpleAttribute<Car, Integer> DOORS = attribute("doors", Car::doors);
    public static final SimpleAttribute<Car, Double> PRICE = attribute("price", Car::price);

    private static final String[] MAKERS = {"Ford", "Honda", "Toyota", "BMW", "Tesla"};

    /**
     * Car {@code i}. Prices are whole numbers, so that sums are exact in any order of addition and Spark's must
     * equal DuckDB's to the last bit.
     */
    public static Car of(int i) {
        String maker = MAKERS[Math.floorMod(i * 7 + i / 5, MAKERS.length)];
        return new Car(i, maker, maker + "-" + (i % 11), 2 + i % 3, 5_000 + Math.floorMod(i * 7919, 40_000));
    }
}
