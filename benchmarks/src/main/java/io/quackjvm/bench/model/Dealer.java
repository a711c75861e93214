package io.quackjvm.bench.model;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The benchmark's second collection, for existsIn and joins: {@link #DEALERS} dealers in 100 cities with 0-4
 * stars. Each car belongs to one dealer, {@link #CAR_DEALER} (a fixed function of the car id, so every backend
 * sees the same relation). A plain class with a no-argument constructor, like {@link Car}.
 */
public final class Dealer {

    public static final int DEALERS = 50_000;

    private int dealerId;
    private String name;
    private String city;
    private int stars;

    /** For serializers that want one. */
    public Dealer() {
    }

    public Dealer(int dealerId, String name, String city, int stars) {
        this.dealerId = dealerId;
        this.name = name;
        this.city = city;
        this.stars = stars;
    }

    public int dealerId() { return dealerId; }
    public String name() { return name; }
    public String city() { return city; }
    public int stars() { return stars; }

    public static final SimpleAttribute<Dealer, Integer> DEALER_ID = new SimpleAttribute<Dealer, Integer>(Dealer.class, Integer.class, "dealerId") {
        @Override public Integer getValue(Dealer d, QueryOptions q) { return d.dealerId; }
    };
    public static final SimpleAttribute<Dealer, String> CITY = new SimpleAttribute<Dealer, String>(Dealer.class, String.class, "city") {
        @Override public String getValue(Dealer d, QueryOptions q) { return d.city; }
    };
    public static final SimpleAttribute<Dealer, Integer> STARS = new SimpleAttribute<Dealer, Integer>(Dealer.class, Integer.class, "stars") {
        @Override public Integer getValue(Dealer d, QueryOptions q) { return d.stars; }
    };
    /** The dealer of a car. */
    public static final SimpleAttribute<Car, Integer> CAR_DEALER = new SimpleAttribute<Car, Integer>(Car.class, Integer.class, "dealerId") {
        @Override public Integer getValue(Car c, QueryOptions q) { return dealerOf(c.getCarId()); }
    };

    public static int dealerOf(int carId) {
        return (int) Math.floorMod(carId * 7919L, (long) DEALERS);
    }

    public static Dealer dealer(int id) {
        return new Dealer(id, "Dealer" + id, "City" + (id % 100), (int) Math.floorMod(id * 31L + 7, 5L));
    }

    public static List<Dealer> all() {
        List<Dealer> out = new ArrayList<>(DEALERS);
        for (int i = 0; i < DEALERS; i++) {
            out.add(dealer(i));
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Dealer d && d.dealerId == dealerId && d.stars == stars && Objects.equals(d.name, name)
                && Objects.equals(d.city, city);
    }

    @Override
    public int hashCode() {
        return dealerId;
    }

    @Override
    public String toString() {
        return "Dealer{" + dealerId + ", " + name + ", " + city + ", " + stars + "}";
    }
}
