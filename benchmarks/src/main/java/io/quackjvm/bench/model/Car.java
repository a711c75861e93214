package io.quackjvm.bench.model;

import com.googlecode.cqengine.attribute.MultiValueAttribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The benchmark object: eight fields, a plain class (no record) so every backend, including CQEngine's Kryo 5
 * serializer and SQLite indexes, can store it. Attributes carry explicit types, so no typetools lambda inference
 * is involved in any configuration.
 */
public final class Car {

    public enum Colour { RED, GREEN, BLUE, BLACK, WHITE, SILVER, GREY, YELLOW }

    private int carId;
    private String manufacturer;
    private String model;
    private Colour colour;
    private int doors;
    private double price;
    private List<String> features;
    private int year;

    /** For serializers that want one. */
    public Car() {
    }

    public Car(int carId, String manufacturer, String model, Colour colour, int doors, double price,
               List<String> features, int year) {
        this.carId = carId;
        this.manufacturer = manufacturer;
        this.model = model;
        this.colour = colour;
        this.doors = doors;
        this.price = price;
        this.features = new ArrayList<>(features);
        this.year = year;
    }

    public int getCarId() { return carId; }
    public String getManufacturer() { return manufacturer; }
    public String getModel() { return model; }
    public Colour getColour() { return colour; }
    public int getDoors() { return doors; }
    public double getPrice() { return price; }
    public List<String> getFeatures() { return features; }
    public int getYear() { return year; }

    public static final SimpleAttribute<Car, Integer> CAR_ID = new SimpleAttribute<Car, Integer>(Car.class, Integer.class, "carId") {
        @Override public Integer getValue(Car car, QueryOptions queryOptions) { return car.carId; }
    };
    public static final SimpleAttribute<Car, String> MANUFACTURER = new SimpleAttribute<Car, String>(Car.class, String.class, "manufacturer") {
        @Override public String getValue(Car car, QueryOptions queryOptions) { return car.manufacturer; }
    };
    public static final SimpleAttribute<Car, String> MODEL = new SimpleAttribute<Car, String>(Car.class, String.class, "model") {
        @Override public String getValue(Car car, QueryOptions queryOptions) { return car.model; }
    };
    public static final SimpleAttribute<Car, Colour> COLOUR = new SimpleAttribute<Car, Colour>(Car.class, Colour.class, "colour") {
        @Override public Colour getValue(Car car, QueryOptions queryOptions) { return car.colour; }
    };
    public static final SimpleAttribute<Car, Integer> DOORS = new SimpleAttribute<Car, Integer>(Car.class, Integer.class, "doors") {
        @Override public Integer getValue(Car car, QueryOptions queryOptions) { return car.doors; }
    };
    public static final SimpleAttribute<Car, Double> PRICE = new SimpleAttribute<Car, Double>(Car.class, Double.class, "price") {
        @Override public Double getValue(Car car, QueryOptions queryOptions) { return car.price; }
    };
    public static final MultiValueAttribute<Car, String> FEATURES = new MultiValueAttribute<Car, String>(Car.class, String.class, "features") {
        @Override public Iterable<String> getValues(Car car, QueryOptions queryOptions) { return car.features; }
    };
    public static final SimpleAttribute<Car, Integer> YEAR = new SimpleAttribute<Car, Integer>(Car.class, Integer.class, "year") {
        @Override public Integer getValue(Car car, QueryOptions queryOptions) { return car.year; }
    };

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Car)) return false;
        Car c = (Car) o;
        return carId == c.carId && doors == c.doors && Double.compare(price, c.price) == 0 && year == c.year
                && Objects.equals(manufacturer, c.manufacturer) && Objects.equals(model, c.model)
                && colour == c.colour && Objects.equals(features, c.features);
    }

    @Override
    public int hashCode() {
        return carId;
    }

    @Override
    public String toString() {
        return "Car{" + carId + ", " + manufacturer + " " + model + ", " + colour + ", " + doors + " doors, "
                + price + ", " + features + ", " + year + "}";
    }
}
