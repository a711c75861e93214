package io.quackjvm.it;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.attribute.MultiValueAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.List;
import java.util.Objects;

/** An ordinary class (no no-argument constructor) used by the whole-stack tests. */
public final class Car {

    public enum Colour { RED, GREEN, BLUE, WHITE, BLACK }

    public static final SimpleAttribute<Car, Integer> CAR_ID = new SimpleAttribute<>(Car.class, Integer.class, "carId") {
        @Override
        public Integer getValue(Car car, QueryOptions queryOptions) {
            return car.carId;
        }
    };

    public static final SimpleAttribute<Car, String> MANUFACTURER = new SimpleAttribute<>(Car.class, String.class, "manufacturer") {
        @Override
        public String getValue(Car car, QueryOptions queryOptions) {
            return car.manufacturer;
        }
    };

    public static final SimpleAttribute<Car, Double> PRICE = new SimpleAttribute<>(Car.class, Double.class, "price") {
        @Override
        public Double getValue(Car car, QueryOptions queryOptions) {
            return car.price;
        }
    };

    public static final MultiValueAttribute<Car, String> FEATURES = new MultiValueAttribute<>(Car.class, String.class, "features") {
        @Override
        public Iterable<String> getValues(Car car, QueryOptions queryOptions) {
            return car.features;
        }
    };

    private final Integer carId;
    private final String manufacturer;
    private final String model;
    private final Colour colour;
    private final int doors;
    private final double price;
    private final List<String> features;

    public Car(Integer carId, String manufacturer, String model, Colour colour, int doors, double price, List<String> features) {
        this.carId = carId;
        this.manufacturer = manufacturer;
        this.model = model;
        this.colour = colour;
        this.doors = doors;
        this.price = price;
        this.features = features;
    }

    public Integer carId() { return carId; }
    public String manufacturer() { return manufacturer; }
    public double price() { return price; }

    public Car withPrice(double newPrice) {
        return new Car(carId, manufacturer, model, colour, doors, newPrice, features);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Car c && Objects.equals(carId, c.carId) && Objects.equals(manufacturer, c.manufacturer)
                && Objects.equals(model, c.model) && colour == c.colour && doors == c.doors
                && Double.compare(price, c.price) == 0 && Objects.equals(features, c.features);
    }

    @Override
    public int hashCode() {
        return Objects.hash(carId, manufacturer, model, colour, doors, price, features);
    }

    @Override
    public String toString() {
        return "Car{" + carId + ", " + manufacturer + " " + model + ", " + colour + ", " + doors + " doors, " + price + ", " + features + "}";
    }

    /** A deterministic car for an id. */
    public static Car of(int id) {
        String[] makers = {"Ford", "Honda", "Toyota", "BMW", "Tesla"};
        String[] models = {"Focus", "Civic", "Prius", "M3", "Model S"};
        int m = id % makers.length;
        List<String> features = id % 3 == 0 ? List.of("sunroof", "radio") : id % 3 == 1 ? List.of("radio") : List.of();
        return new Car(id, makers[m], models[m], Colour.values()[id % Colour.values().length], 2 + id % 4,
                5000.0 + (id * 37 % 1000) * 10, features);
    }

    /** The cars with ids {@code 0 .. n-1}. */
    public static List<Car> firstN(int n) {
        List<Car> out = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(of(i));
        }
        return out;
    }
}
