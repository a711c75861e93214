package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.it.Car;
import io.quackjvm.it.OtherProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code close()} always closes: open results are invalidated and the file is released at once. */
class CloseTest {

    @TempDir
    Path dir;

    @Test
    void closeReleasesTheFileAndInvalidatesOpenResults() {
        Path file = dir.resolve("cars.duckdb");
        DuckDBIndex<String, Car> byMaker = DuckDBIndex.onAttribute(Car.MANUFACTURER);
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file)
                .trackUnclosedResults(true).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        cars.addIndex(byMaker);
        cars.addAll(Car.firstN(5_000));
        Iterator<Car> iterator = cars.iterator();
        iterator.next();
        ResultSet<Car> result = cars.retrieve(greaterThan(Car.CAR_ID, 10));
        Iterator<Car> resultIterator = result.iterator();
        resultIterator.next();
        p.close();

        // the same JVM opens the file again at once, with the index object it already holds
        try (DuckDBPersistence<Car, Integer> again = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> reopened = new ConcurrentIndexedCollection<>(again);
            reopened.addIndex(byMaker);
            assertEquals(5_000, reopened.size());
            try (ResultSet<Car> rs = reopened.retrieve(equal(Car.MANUFACTURER, Car.of(3).manufacturer()))) {
                assertTrue(rs.size() > 0);
            }
        }
        // what was open fails clearly instead of reading a closed database
        assertThrows(PersistenceClosedException.class, iterator::hasNext);
        assertThrows(PersistenceClosedException.class, resultIterator::next);
        result.close();
        assertThrows(PersistenceClosedException.class, () -> cars.add(Car.of(1)));
    }

    @Test
    void anotherProcessCanOpenTheFileAfterCloseWithResultsLeftOpen() throws Exception {
        Path file = dir.resolve("shared.duckdb");
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        cars.addAll(Car.firstN(2_000));
        List<Iterator<Car>> open = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Iterator<Car> it = cars.iterator();
            it.next();
            open.add(it);
        }
        p.close();

        assertEquals(2_000, OtherProcess.countRows(dir, file, "car", false));
        assertEquals(5, open.size());
    }

    @Test
    void hundredsOfAbandonedHalfReadResultsLeaveCompactCloseAndReopenWorking() {
        Path file = dir.resolve("leaky.duckdb");
        // Each dropped result holds DuckDB memory until the JVM happens to collect it (the library never forces a
        // collection): a half-read index query holds its key set, a few MB here, so no tight memoryLimit.
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
            cars.addAll(Car.firstN(20_000));
            for (int i = 0; i < 300; i++) {
                // half-read and dropped: never exhausted, never closed
                Iterator<Car> it = i % 2 == 0 ? cars.iterator()
                        : cars.retrieve(greaterThan(Car.PRICE, 0.0)).iterator();
                it.next();
                if (i % 50 == 0) {
                    cars.add(Car.of(100_000 + i));
                }
            }
            p.compact();
            assertEquals(20_006, cars.size());
        }
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            assertEquals(20_006, new ConcurrentIndexedCollection<>(p).size());
        }
    }

    @Test
    void aWriteRunningWhenTheDatabaseClosesIsRolledBackWhole() throws Exception {
        Path file = dir.resolve("busy.duckdb");
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        // The index's values are computed inside the write's transaction, after its objects are written: the
        // attribute stops the writer there, on one object, until close() has returned.
        CountDownLatch insideTheWrite = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        int blockOn = 2_500;
        SimpleAttribute<Car, String> blocking = new SimpleAttribute<>(Car.class, String.class, "blockingMaker") {
            @Override
            public String getValue(Car car, QueryOptions queryOptions) {
                if (car.carId() == blockOn && insideTheWrite.getCount() > 0) {
                    insideTheWrite.countDown();
                    try {
                        closed.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
                return car.manufacturer();
            }
        };
        cars.addIndex(DuckDBIndex.onAttribute(blocking));
        List<Car> many = Car.firstN(5_000);
        CompletableFuture<Boolean> writer = CompletableFuture.supplyAsync(() -> cars.addAll(many));
        assertTrue(insideTheWrite.await(60, TimeUnit.SECONDS), "the write never reached the index");
        p.close();
        closed.countDown();
        ExecutionException failed = assertThrows(ExecutionException.class, () -> writer.get(60, TimeUnit.SECONDS));
        assertInstanceOf(PersistenceClosedException.class, failed.getCause(), () -> "the write cut off by close() "
                + "must fail with PersistenceClosedException, not " + failed.getCause());
        try (DuckDBPersistence<Car, Integer> again = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            assertEquals(0, new ConcurrentIndexedCollection<>(again).size(), "nothing of the cut-off write is stored");
        }
    }
}
