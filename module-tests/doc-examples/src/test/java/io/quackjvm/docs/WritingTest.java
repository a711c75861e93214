package io.quackjvm.docs;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBFlags;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.enableFlags;
import static com.googlecode.cqengine.query.QueryFactory.queryOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The examples of docs/writing.md. */
class WritingTest extends Shop {

    @Test
    void bulkWriterAndBulkImporter() {
        try (DuckDBPersistence<Car, Integer> persistence = DuckDBPersistence.builder(Car.CAR_ID).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
            List<Car> carsFromAFileOrAQuery = cars(0, 1_000);
            Car oneMore = cars(1_000, 1_001).get(0);
            // tag::bulk-writer[]
            try (DuckDBBulkWriter<Car> writer = persistence.bulkWriter()) {
                writer.addAll(carsFromAFileOrAQuery);   // any Iterable, read once, never collected
                writer.add(oneMore);
                writer.commit();
            }                                           // close() without commit() discards the load
            // end::bulk-writer[]
            assertEquals(new HashSet<>(cars(0, 1_001)), new HashSet<>(cars));

            List<Car> newCars = cars(1_001, 1_500);
            List<Car> moreNewCars = cars(1_500, 2_000);
            // tag::bulk-import[]
            cars.update(List.of(), newCars, queryOptions(enableFlags(DuckDBFlags.BULK_IMPORT)));   // a batch you hold
            try (DuckDBBulkWriter<Car> w = persistence.bulkImporter()) {                           // a streamed load
                w.addAll(moreNewCars);
                w.commit();
            }
            // end::bulk-import[]
            assertEquals(new HashSet<>(cars(0, 2_000)), new HashSet<>(cars));
        }
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            List<Car> moreNewCars = cars(0, 700);
            // tag::bulk-import[]
            try (DuckDBBulkWriter<Car> w = db.bulkImporter(cars)) {   // the same, for a DuckDBDatabase's collection
                w.addAll(moreNewCars);
                w.commit();
            }
            // end::bulk-import[]
            assertEquals(new HashSet<>(cars(0, 700)), new HashSet<>(cars));
        }
    }

    @Test
    void slicedLoad() {
        try (DuckDBPersistence<Car, Integer> persistence = DuckDBPersistence.builder(Car.CAR_ID).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
            // tag::sliced[]
            try (DuckDBBulkWriter<Car> writer = persistence.bulkWriter().commitEvery(500)) {
                // after a crash, the same input again: what the last run committed is skipped
                System.out.println("skipping " + writer.resumedAfter() + " objects committed before");
                writer.addAll(loadCars());
                writer.commit();                       // ends the load: the next one starts afresh
            }
            // end::sliced[]
            assertEquals(CARS, cars.size());
        }
    }

    @Test
    void progress() {
        // tag::progress[]
        DuckDBPersistence<Car, Integer> persistence = DuckDBPersistence.builder(Car.CAR_ID)
                .progressListener(p -> System.out.println(p))   // bulk load of collection 'car': 655360 rows in 5073 ms
                .build();
        // end::progress[]
        try (persistence) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
            try (DuckDBBulkWriter<Car> writer = persistence.bulkWriter()) {
                writer.addAll(loadCars());
                writer.commit();
            }
            assertEquals(CARS, cars.size());
        }
    }
}
