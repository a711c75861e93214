package io.quackjvm.demo;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.Joined;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.existsIn;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.greaterThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;

/**
 * A tour of quackjvm on an in-memory database: two collections (cars and dealers) in one {@link DuckDBDatabase},
 * a bulk load with progress, lookups, a query tree answered by one SQL statement, existsIn and a typed join across
 * the two collections, aggregates computed in DuckDB, and plain SQL. It prints each step and how long it took.
 * Run it with the README's demo command; the first argument is the number of cars.
 */
public final class Demo {

    public enum Colour { RED, GREEN, BLUE, WHITE, BLACK, SILVER }

    /** A car, stored with the default blob layout (Kryo) and found through its indexed attributes. */
    public record Car(int carId, String manufacturer, String model, Colour colour, int doors, double price,
                      List<String> features, int year) {

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
        public static final SimpleAttribute<Car, Integer> YEAR = new SimpleAttribute<>(Car.class, Integer.class, "year") {
            @Override
            public Integer getValue(Car car, QueryOptions queryOptions) {
                return car.year;
            }
        };
    }

    /** A dealer, stored with the columnar layout: one typed DuckDB column per component. */
    public record Dealer(int dealerId, String name, String brand, String city) {

        public static final SimpleAttribute<Dealer, Integer> DEALER_ID = new SimpleAttribute<>(Dealer.class, Integer.class, "dealerId") {
            @Override
            public Integer getValue(Dealer dealer, QueryOptions queryOptions) {
                return dealer.dealerId;
            }
        };
        public static final SimpleAttribute<Dealer, String> BRAND = new SimpleAttribute<>(Dealer.class, String.class, "brand") {
            @Override
            public String getValue(Dealer dealer, QueryOptions queryOptions) {
                return dealer.brand;
            }
        };
        public static final SimpleAttribute<Dealer, String> CITY = new SimpleAttribute<>(Dealer.class, String.class, "city") {
            @Override
            public String getValue(Dealer dealer, QueryOptions queryOptions) {
                return dealer.city;
            }
        };
    }

    /** A row of a SQL answer, filled by column name. */
    public record MakerStats(String manufacturer, long cars, double avgPrice) {
    }

    private static final String[][] MODELS = {
            {"Ford", "Focus", "Fiesta", "Mondeo"}, {"Honda", "Civic", "Accord", "Jazz"},
            {"Toyota", "Prius", "Corolla", "Yaris"}, {"BMW", "M3", "X5", "i3"}, {"Tesla", "Model S", "Model 3", "Model Y"}};
    private static final String[] FEATURES = {"sunroof", "radio", "navigation", "heated seats", "tow bar"};
    private static final String[] CITIES = {"Leeds", "Cork", "Lyon", "Porto", "Turin", "Graz"};

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

    static List<Dealer> dealers(int n, long seed) {
        Random random = new Random(seed);
        List<Dealer> dealers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            // Tesla sells only in three of the cities, so some cars have no dealer in a given city.
            String brand = MODELS[random.nextInt(MODELS.length)][0];
            String city = CITIES[random.nextInt(brand.equals("Tesla") ? 3 : CITIES.length)];
            dealers.add(new Dealer(i, brand + " " + city + " #" + i, brand, city));
        }
        return dealers;
    }

    private static <T> T timed(String what, Supplier<T> step) {
        long start = System.nanoTime();
        T result = step.get();
        Object shown = result instanceof java.util.Collection<?> c && c.size() > 20 ? c.size() + " items" : result;
        System.out.printf("%-62s %10.1f ms   -> %s%n", what, (System.nanoTime() - start) / 1e6, shown);
        return result;
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 500_000;
        System.out.printf("quackjvm demo: %,d cars and 2,000 dealers in one in-memory DuckDB database, memoryLimit "
                + "256MB%n%n", n);
        List<Car> generated = timed(String.format("generate %,d cars on the heap (fixed seed)", n), () -> generate(n, 42));
        try (DuckDBDatabase db = DuckDBDatabase.builder().memoryLimit("256MB").build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car")
                    .progressListener(p -> System.out.printf("    progress: %s%n", p))
                    .build();
            IndexedCollection<Dealer> dealers = db.collection(Dealer.DEALER_ID).name("dealer")
                    .columnarLayout(ColumnarLayout.ofRecord(Dealer.class)).build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
            cars.addIndex(DuckDBIndex.onAttribute(Car.YEAR));
            dealers.addIndex(DuckDBIndex.onAttribute(Dealer.BRAND));

            timed("load every car (bulk writer: one transaction)", () -> {
                try (DuckDBBulkWriter<Car> writer = db.bulkWriter(cars)) {
                    writer.addAll(generated);
                    writer.commit();
                }
                return "committed";
            });
            timed("load 2,000 dealers (addAll, columnar layout)", () -> dealers.addAll(dealers(2_000, 7)));
            timed("sort the index tables of both collections (optimize)", () -> {
                db.optimize();
                return "done";
            });
            timed("how many cars are stored? (size: a count in DuckDB)", cars::size);

            Random random = new Random(7);
            timed("find 1,000 random cars by id (one lookup each)", () -> {
                int found = 0;
                for (int i = 0; i < 1_000; i++) {
                    try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, random.nextInt(n)))) {
                        found += rs.size() == 1 ? 1 : 0;
                    }
                }
                return found + " found";
            });
            timed("models of cars 1, 2, 3, 5, 8, 13, 21, 34, 55, 89 (in)", () -> {
                try (ResultSet<Car> rs = cars.retrieve(in(Car.CAR_ID, Arrays.asList(1, 2, 3, 5, 8, 13, 21, 34, 55, 89)))) {
                    return rs.stream().map(Car::model).toList();
                }
            });
            timed("Fords priced 20,000-21,000 built from 2020 (one statement)", () -> {
                try (ResultSet<Car> rs = cars.retrieve(and(equal(Car.MANUFACTURER, "Ford"),
                        between(Car.PRICE, 20_000.0, 21_000.0), greaterThanOrEqualTo(Car.YEAR, 2020)))) {
                    return rs.size() + " cars";
                }
            });
            timed("cars whose make has a dealer in Graz (existsIn: a semi-join)", () -> {
                try (ResultSet<Car> rs = cars.retrieve(existsIn(dealers, Car.MANUFACTURER, Dealer.BRAND,
                        equal(Dealer.CITY, "Graz")))) {
                    return rs.size() + " cars";
                }
            });
            timed("pairs of a car over 64,000 and a dealer of its make (join)", () ->
                    db.join(cars, dealers).on(Car.MANUFACTURER, Dealer.BRAND)
                            .whereLeft(greaterThan(Car.PRICE, 64_000.0)).count() + " pairs");
            timed("the first three of those pairs (join, streamed)", () -> {
                try (Stream<Joined<Car, Dealer>> pairs = db.join(cars, dealers).on(Car.MANUFACTURER, Dealer.BRAND)
                        .whereLeft(greaterThan(Car.PRICE, 64_000.0)).stream()) {
                    return pairs.limit(3).map(j -> "car " + j.left().carId() + " at " + j.right().name()).toList();
                }
            });
            timed("count of cars priced under 30,000 (count in DuckDB)", () ->
                    db.from(cars).where(lessThan(Car.PRICE, 30_000.0)).count());
            timed("total price of the cars priced 20,000-32,000 (sum)", () -> String.format("%,.0f",
                    db.from(cars).where(between(Car.PRICE, 20_000.0, 32_000.0)).sum(Car.PRICE)));
            timed("average price per make (groupBy, avg)", () -> {
                Map<String, Double> avg = new TreeMap<>(db.from(cars).groupBy(Car.MANUFACTURER).avg(Car.PRICE));
                avg.replaceAll((maker, price) -> Math.round(price * 100) / 100.0);
                return avg;
            });
            timed("median price of all cars (median)", () -> db.from(cars).median(Car.PRICE).orElseThrow());
            timed("the two makes with most cars built from 2020, avg price (SQL)", () ->
                    db.query("SELECT manufacturer, count(*) AS cars, round(avg(price), 2) AS avgPrice FROM car "
                            + "WHERE year >= ? GROUP BY manufacturer ORDER BY cars DESC LIMIT 2", 2020)
                            .records(MakerStats.class));
            timed("average price, every car iterated into Java", () -> {
                double sum = 0;
                int count = 0;
                for (Car car : cars) {
                    sum += car.price();
                    count++;
                }
                return String.format("%,d cars, average %.2f", count, sum / count);
            });
            Car changed = new Car(7, "Ford", "Focus", Colour.RED, 5, 1.0, List.of(), 2026);
            timed("replace car 7 (update: one transaction)", () ->
                    cars.update(List.of(generated.get(7)), List.of(changed)));
            timed("is the new car 7 stored? (contains)", () -> cars.contains(changed));
            timed("remove car 8 (remove)", () -> cars.remove(generated.get(8)));
            timed("bytes DuckDB holds (getBytesUsed)", db::getBytesUsed);
            System.out.printf("%ndescribe():%n%s", db.describe());
            Runtime rt = Runtime.getRuntime();
            System.gc();
            System.out.printf("%nJava heap in use after GC: %,d MB (the %,d cars also still sit in the demo's own list)%n",
                    (rt.totalMemory() - rt.freeMemory()) >> 20, n);
        }
    }
}
