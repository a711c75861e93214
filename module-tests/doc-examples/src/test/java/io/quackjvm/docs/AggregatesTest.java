package io.quackjvm.docs;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The examples of docs/aggregates.md. */
class AggregatesTest extends Shop {

    @Test
    void typedAndSqlAnswers() {
        List<Car> all = loadCars();
        // tag::typed[]
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(Path.of("shop.duckdb")).build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));   // each attribute read below has an index
            cars.addIndex(DuckDBIndex.onAttribute(Car.MODEL));
            cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
            cars.addIndex(DuckDBIndex.onAttribute(Car.DOORS));
            cars.addAll(loadCars());

            long n            = db.from(cars).count();
            double total      = db.from(cars).where(between(Car.PRICE, 5_000.0, 24_000.0)).sum(Car.PRICE);
            OptionalDouble a  = db.from(cars).where(equal(Car.MANUFACTURER, "Ford")).avg(Car.PRICE);
            Optional<Double> cheapest = db.from(cars).min(Car.PRICE);
            long makers       = db.from(cars).countDistinct(Car.MANUFACTURER);
            Optional<Double> median   = db.from(cars).median(Car.PRICE);
            Optional<Double> p90      = db.from(cars).quantile(Car.PRICE, 0.9);

            Map<String, Long>   carsByMaker  = db.from(cars).groupBy(Car.MANUFACTURER).count();
            Map<String, Double> avgByMaker   = db.from(cars).groupBy(Car.MANUFACTURER).avg(Car.PRICE);
            Map<String, Double> dearestFords = db.from(cars).where(equal(Car.MANUFACTURER, "Ford"))
                                                 .groupBy(Car.MODEL).max(Car.PRICE);
            // end::typed[]
            assertEquals(CARS, n);
            assertEquals(all.stream().mapToDouble(Car::price).filter(p -> p >= 5_000 && p <= 24_000).sum(), total,
                    1e-6);
            assertEquals(all.stream().filter(c -> c.manufacturer().equals("Ford")).mapToDouble(Car::price)
                    .average().orElseThrow(), a.orElseThrow(), 1e-6);
            assertEquals(5_000.0, cheapest.orElseThrow());
            assertEquals(4, makers);
            List<Double> sorted = all.stream().map(Car::price).sorted().toList();
            assertEquals(sorted.get((int) Math.ceil(0.5 * CARS) - 1), median.orElseThrow());
            assertEquals(sorted.get((int) Math.ceil(0.9 * CARS) - 1), p90.orElseThrow());
            assertEquals(Map.of("Ford", 500L, "Honda", 500L, "Toyota", 500L, "BMW", 500L), carsByMaker);
            assertEquals(4, avgByMaker.size());
            assertEquals(all.stream().filter(c -> c.manufacturer().equals("Ford")).collect(Collectors.groupingBy(
                            Car::model, Collectors.collectingAndThen(Collectors.maxBy(Comparator.comparingDouble(
                                    Car::price)), c -> c.orElseThrow().price()))), dearestFords);

            // tag::sql[]
            record Avg(String manufacturer, long n, double avgPrice) { }
            List<Avg> rows = db.query("SELECT manufacturer, count(*) AS n, avg(price) AS avgPrice FROM car "
                    + "WHERE doors = ? GROUP BY 1 ORDER BY 1", 4).records(Avg.class);
            long fords     = db.query("SELECT count(*) FROM car WHERE manufacturer = ?", "Ford").scalar(Long.class);
            List<String> m = db.query("SELECT DISTINCT manufacturer FROM car").list(String.class);
            long groups    = db.query("SELECT manufacturer FROM car GROUP BY 1").count();
            try (Stream<Avg> s = db.query("SELECT manufacturer, count(*) AS n, avg(price) AS avgPrice FROM car "
                    + "GROUP BY 1").stream(Avg.class)) {
                s.forEach(System.out::println);
            }
            // end::sql[]
            List<Car> fourDoors = all.stream().filter(c -> c.doors() == 4).toList();
            assertEquals(fourDoors.stream().map(Car::manufacturer).distinct().sorted().toList(),
                    rows.stream().map(Avg::manufacturer).toList());
            assertEquals(fourDoors.size(), rows.stream().mapToLong(Avg::n).sum());
            assertEquals(500, fords);
            assertEquals(4, m.size());
            assertEquals(4, groups);
            // tag::typed[]
        }
        // end::typed[]
    }
}
