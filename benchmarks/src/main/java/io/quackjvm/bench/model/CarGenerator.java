package io.quackjvm.bench.model;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deterministic cars: {@link #car(int)} depends only on the id and the fixed seed, so every forked JVM sees the
 * same objects, and objects added after the load (ids at and above the collection size) are reproducible too.
 *
 * <p>Shape, chosen so the benchmark queries have known selectivity: 50 manufacturers (each ~2% of the
 * collection), 5 models each, 8 colours, prices uniform over [{@value #MIN_PRICE}, {@value #MAX_PRICE}).
 */
public final class CarGenerator {

    public static final long SEED = 0x5EED_CA75L;
    public static final int MANUFACTURERS = 50;
    public static final double MIN_PRICE = 5_000;
    public static final double MAX_PRICE = 100_000;

    private static final String[] FEATURES = {"sunroof", "radio", "gps", "heated seats", "tow bar", "parking sensors",
            "cruise control", "bluetooth", "alloy wheels", "leather"};
    private static final Car.Colour[] COLOURS = Car.Colour.values();

    private CarGenerator() {
    }

    public static String manufacturer(int i) {
        return String.format("Maker%02d", i);
    }

    public static Car car(int id) {
        SplittableRandom r = new SplittableRandom(SEED ^ (id * 0x9E3779B97F4A7C15L));
        int m = r.nextInt(MANUFACTURERS);
        String manufacturer = manufacturer(m);
        String model = manufacturer + "-Model" + r.nextInt(5);
        Car.Colour colour = COLOURS[r.nextInt(COLOURS.length)];
        int doors = 2 + r.nextInt(4);
        double price = Math.round((MIN_PRICE + r.nextDouble() * (MAX_PRICE - MIN_PRICE)) * 100) / 100.0;
        int n = r.nextInt(4);
        List<String> features = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String f = FEATURES[r.nextInt(FEATURES.length)];
            if (!features.contains(f)) {
                features.add(f);
            }
        }
        int year = 1995 + r.nextInt(31);
        return new Car(id, manufacturer, model, colour, doors, price, features, year);
    }

    /** Cars with ids {@code [from, from + count)}. */
    public static List<Car> cars(int from, int count) {
        List<Car> cars = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            cars.add(car(from + i));
        }
        return cars;
    }
}
