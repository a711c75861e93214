package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.ObjectCacheStats;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Everything a collection's persistence offers, reached through its database from a collection built by
 * {@code database.collection(pk).build()}, with no cast.
 */
class DatabaseCollectionOperationsTest {

    @TempDir
    Path dir;

    @Test
    void bulkImporterLoadsNewKeysAndRefusesAStoredOne() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            try (DuckDBBulkWriter<Car> w = db.bulkImporter(cars)) {
                w.addAll(Car.firstN(500));
                w.commit();
            }
            assertEquals(500, cars.size());
            DuckDBBulkWriter<Car> again = db.bulkImporter(cars);
            QuackException e = assertThrows(QuackException.class, () -> {
                again.add(Car.of(42));
                again.commit();
            });
            again.close();
            assertTrue(e.getMessage().contains("42"), e.getMessage());
            assertEquals(500, cars.size());
        }
    }

    @Test
    void cacheStatsCountTheLookupsOfTheCollection() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").objectCacheSize(100).build();
            IndexedCollection<Car> uncached = db.collection(Car.CAR_ID).name("other").build();
            cars.addAll(Car.firstN(20));
            lookup(cars, 7);
            lookup(cars, 7);
            ObjectCacheStats stats = db.cacheStats(cars);
            assertEquals(1, stats.misses());
            assertEquals(1, stats.hits());
            assertEquals(1, stats.size());
            assertEquals(100, stats.maxSize());
            List<Car> got = new ArrayList<>();
            try (ResultSet<Car> rs = cars.retrieve(in(Car.CAR_ID, 7, 8))) {
                rs.forEach(got::add);
            }
            assertEquals(2, got.size());
            assertEquals(2, db.cacheStats(cars).size(), "the in(...) kept the key it read");
            long hits = db.cacheStats(cars).hits();
            lookup(cars, 8);
            assertEquals(hits + 1, db.cacheStats(cars).hits(), db.cacheStats(cars).toString());
            assertEquals(new ObjectCacheStats(0, 0, 0, 0, 0), db.cacheStats(uncached));
        }
    }

    @Test
    void compactOfOneCollectionKeepsItsFileBounded() throws Exception {
        Path file = dir.resolve("compact.duckdb");
        List<Car> batch = Car.firstN(10_000);
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(batch);
            db.compact(cars);
            long fresh = fileSize(file);
            List<Long> sizes = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                assertTrue(cars.removeAll(batch));
                assertTrue(cars.addAll(batch));
                db.compact(cars);
                sizes.add(fileSize(file));
            }
            long largest = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
            assertTrue(largest <= fresh * 3 / 2, "fresh " + fresh + " bytes, then " + sizes);
            assertEquals(batch.size(), cars.size());
        }
    }

    @Test
    void optimizeAndAnalyzeOfOneCollectionLeaveItsAnswers() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(Car.firstN(2_000));
            long expected = Car.firstN(2_000).stream().filter(c -> c.price() >= 2_000 && c.price() <= 6_000).count();
            db.optimize(cars);
            db.analyze(cars);
            try (ResultSet<Car> rs = cars.retrieve(between(Car.PRICE, 2_000.0, 6_000.0))) {
                assertEquals(expected, rs.size());
            }
            assertEquals(2_000, cars.size());
        }
    }

    @Test
    void nameAndCloseOfOneCollection() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            IndexedCollection<Person> people = db.collection(Person.NAME).build();
            assertEquals("car", db.nameOf(cars));
            assertEquals("person", db.nameOf(people));
            cars.addAll(Car.firstN(10));
            db.close(cars);
            db.close(cars);
            assertThrows(PersistenceClosedException.class, cars::size);
            assertThrows(PersistenceClosedException.class, () -> db.cacheStats(cars));
            assertEquals(List.of("person"), db.collectionNames());
            IndexedCollection<Car> reopened = db.collection(Car.CAR_ID).name("car").build();
            assertEquals(10, reopened.size(), "its rows stay in the database");
        }
    }

    @Test
    void aCollectionThatIsNotOneOfTheDatabasesIsRefusedByEveryOperation() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build();
             DuckDBDatabase other = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> foreign = other.collection(Car.CAR_ID).name("car").build();
            IndexedCollection<Car> onHeap = new ConcurrentIndexedCollection<>();
            for (IndexedCollection<Car> stranger : List.of(foreign, onHeap)) {
                List<Consumer<IndexedCollection<Car>>> operations = List.of(
                        db::bulkImporter, db::bulkWriter, db::cacheStats, db::optimize, db::compact, db::analyze,
                        db::nameOf, db::close);
                for (Consumer<IndexedCollection<Car>> operation : operations) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> operation.accept(stranger));
                    assertTrue(e.getMessage().contains("another DuckDBDatabase")
                            || e.getMessage().contains("not stored in DuckDB"), e.getMessage());
                }
            }
            assertEquals(List.of("car"), other.collectionNames(), "the other database's collection stays open");
        }
    }

    private static Car lookup(IndexedCollection<Car> cars, int id) {
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, id))) {
            return rs.iterator().next();
        }
    }

    private static long fileSize(Path file) throws Exception {
        Path wal = Path.of(file + ".wal");
        return Files.size(file) + (Files.exists(wal) ? Files.size(wal) : 0);
    }
}
