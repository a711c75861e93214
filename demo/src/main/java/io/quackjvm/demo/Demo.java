package io.quackjvm.demo;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.in;

/**
 * Loads a realistic collection of cars into the in-memory default, queries it, and prints what it did and how
 * long each step took. Run it with the README's demo command; the first argument is the number of cars.
 */
public final class Demo {

    public enum Colour { RED, GREEN, BLUE, WHITE, BLACK, SILVER }

    public record Car(int carId, String manufacturer, String model, Colour colour, int doors, double price,
                      List<String> features, int year) {

        public static final SimpleAttribute<Car, Integer> CAR_ID = new SimpleAttribute<>(Car.class, Integer.class, "carId") {
            @Override
            public Integer getValue(Car car, QueryOptions queryOptions) {
                return car.carId;
            }
        };
    }

    private static final String[][] MODELS = {
            {"Ford", "Focus", "Fiesta", "Mondeo"}, {"Honda", "Civic", "Accord", "Jazz"},
            {"Toyota", "Prius", "Corolla", "Yaris"}, {"BMW", "M3", "X5", "i3"}, {"Tesla", "Model S", "Model 3", "Model Y"}};
    private static final String[] FEATURES = {"sunroof", "radio", "navigation", "heated seats", "tow bar"};

    private Demo() {
    }

    static List<Car> generate(int n, long seed) {
        Random random = new Random(seed);
        List<Car> cars = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String[] maker = MODELS[random.nextInt(MODELS.length)];
            List<String> features = new ArrayList<>();
            for (String f : FEATURES) {
                if (random.nextInt(3) == 0) {
                    features.add(f);
                }
            }
            cars.add(new Car(i, maker[0], maker[1 + random.nextInt(3)], Colour.values()[random.nextInt(6)],
                    2 + random.nextInt(4), 5_000 + random.nextInt(60_000), features, 2000 + random.nextInt(26)));
        }
        return cars;
    }

    private static <T> T timed(String what, Supplier<T> step) {
        long start = System.nanoTime();
        T result = step.get();
        Object shown = result instanceof java.util.Collection<?> c && c.size() > 20 ? c.size() + " items" : result;
        System.out.printf("%-58s %10.1f ms   -> %s%n", what, (System.nanoTime() - start) / 1e6, shown);
        return result;
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 500_000;
        System.out.printf("quackjvm demo: %,d cars in an in-memory DuckDB (the default), memoryLimit 256MB%n%n", n);
        List<Car> cars = timed("generate cars on the heap (fixed seed)", () -> generate(n, 42));
        try (DuckDBPersistence<Car, Integer> persistence = DuckDBPersistence.builder(Car.CAR_ID)
                .memoryLimit("256MB").build()) {
            IndexedCollection<Car> collection = new ConcurrentIndexedCollection<>(persistence);
            timed("addAll: bulk load through DuckDB's Appender", () -> collection.addAll(cars));
            timed("size(): a count in DuckDB", collection::size);
            Random random = new Random(7);
            timed("1,000 point lookups by primary key (one SQL each)", () -> {
                int found = 0;
                for (int i = 0; i < 1_000; i++) {
                    try (ResultSet<Car> rs = collection.retrieve(equal(Car.CAR_ID, random.nextInt(n)))) {
                        found += rs.size() == 1 ? 1 : 0;
                    }
                }
                return found + " found";
            });
            timed("in(carId, 10 keys)", () -> {
                try (ResultSet<Car> rs = collection.retrieve(in(Car.CAR_ID, Arrays.asList(1, 2, 3, 5, 8, 13, 21, 34, 55, 89)))) {
                    return rs.stream().map(Car::model).toList();
                }
            });
            timed("between(carId, 1000, 1999): a key range", () -> {
                try (ResultSet<Car> rs = collection.retrieve(between(Car.CAR_ID, 1000, 1999))) {
                    return rs.size() + " cars";
                }
            });
            timed("iterate every car and average the price in Java", () -> {
                double sum = 0;
                int count = 0;
                for (Car car : collection) {
                    sum += car.price();
                    count++;
                }
                return String.format("%,d cars, average %.2f", count, sum / count);
            });
            Car changed = new Car(7, "Ford", "Focus", Colour.RED, 5, 1.0, List.of(), 2026);
            timed("update(): replace car 7 in one transaction", () ->
                    collection.update(List.of(collection.retrieve(equal(Car.CAR_ID, 7)).uniqueResult()), List.of(changed)));
            timed("contains(the replacement)", () -> collection.contains(changed));
            timed("remove(car 8)", () -> collection.remove(cars.get(8)));
            timed("size() after the changes", collection::size);
            timed("memory held by DuckDB (getBytesUsed)", persistence::getBytesUsed);
            Runtime rt = Runtime.getRuntime();
            System.gc();
            System.out.printf("%nJava heap in use after GC: %,d MB (the %,d cars also still sit in the demo's own list)%n",
                    (rt.totalMemory() - rt.freeMemory()) >> 20, n);
        }
    }
}
