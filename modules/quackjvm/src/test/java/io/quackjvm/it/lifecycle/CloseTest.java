package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
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

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file)
                .memoryLimit("256MB").build()) {
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
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        List<Car> many = Car.firstN(300_000);
        java.util.concurrent.CompletableFuture<Boolean> writer =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> cars.addAll(many));
        Thread.sleep(300);
        p.close();
        boolean acknowledged;
        try {
            acknowledged = writer.get(120, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            acknowledged = false;
        }
        try (DuckDBPersistence<Car, Integer> again = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            int size = new ConcurrentIndexedCollection<>(again).size();
            // all or nothing: the request either finished before close() reached it, or was rolled back whole
            assertEquals(acknowledged ? 300_000 : 0, size);
        }
    }
}
