package io.quackjvm.docs;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The examples of README.md. */
class ReadmeTest extends Shop {

    @Test
    void quickStart() {
        // tag::quick-start[]
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(
                DuckDBPersistence.builder(Car.CAR_ID)     // the primary-key attribute
                        .memoryLimit("256MB")             // cap DuckDB's buffer pool (its default is 80% of RAM)
                        .build());                        // in memory by default; .file(path) to persist
        cars.addAll(loadCars());                          // bulk loads go through DuckDB's Appender
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, 42))) {   // one SQL lookup, never a scan
            rs.forEach(System.out::println);
        }
        // end::quick-start[]
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, 42))) {
            assertEquals(List.of(loadCars().get(42)), rs.stream().toList());
        }
        assertEquals(CARS, cars.size());
        ((DuckDBPersistence<?, ?>) cars.getPersistence()).close();
    }

    @Test
    void oneDatabase() {
        // tag::one-database[]
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(Path.of("shop.duckdb")).memoryLimit("512MB").build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            IndexedCollection<Dealer> dealers = db.collection(Dealer.DEALER_ID).name("dealer")
                    .columnarLayout(ColumnarLayout.ofRecord(Dealer.class)).build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
            dealers.addIndex(DuckDBIndex.onAttribute(Dealer.BRAND));       // joined with Car.MANUFACTURER below
            try (DuckDBBulkWriter<Car> writer = db.bulkWriter(cars)) {      // one transaction, streamed in chunks
                writer.addAll(loadCars());
                writer.commit();
            }
            dealers.addAll(loadDealers());
            Map<String, Double> avg = db.from(cars).groupBy(Car.MANUFACTURER).avg(Car.PRICE);  // computed in DuckDB
            long pairs = db.join(cars, dealers).on(Car.MANUFACTURER, Dealer.BRAND).count();   // one SQL join
            List<MakerStats> rows = db.query("SELECT manufacturer, count(*) AS cars FROM car GROUP BY 1")
                    .records(MakerStats.class);
            // end::one-database[]
            assertEquals(4, avg.size());
            assertEquals(loadCars().stream().filter(c -> c.manufacturer().equals("BMW"))
                    .mapToDouble(Car::price).average().orElseThrow(), avg.get("BMW"), 1e-6);
            // every car has the 15 dealers of its brand
            assertEquals((long) CARS * DEALERS / 4, pairs);
            assertEquals(4, rows.size());
            assertEquals(CARS, rows.stream().mapToLong(MakerStats::cars).sum());
            // tag::one-database[]
        }
        // end::one-database[]
    }
}
