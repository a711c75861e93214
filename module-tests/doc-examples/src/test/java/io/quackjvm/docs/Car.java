package io.quackjvm.docs;

import com.googlecode.cqengine.attribute.SimpleAttribute;

import static com.googlecode.cqengine.query.QueryFactory.attribute;

// tag::car[]
/** A car: a plain record. Its attributes are how CQEngine (and quackjvm) reads its fields. */
public record Car(int carId, String manufacturer, String model, int doors, double price, int dealerId) {

    public static final SimpleAttribute<Car, Integer> CAR_ID = attribute("carId", Car::carId);
    public static final SimpleAttribute<Car, String> MANUFACTURER = attribute("manufacturer", Car::manufacturer);
    public static final SimpleAttribute<Car, String> MODEL = attribute("model", Car::model);
    public static final SimpleAttribute<Car, Integer> DOORS = attribute("doors", Car::doors);
    public static final SimpleAttribute<Car, Double> PRICE = attribute("price", Car::price);
    public static final SimpleAttribute<Car, Integer> DEALER_ID = attribute("dealerId", Car::dealerId);
}
// end::car[]
