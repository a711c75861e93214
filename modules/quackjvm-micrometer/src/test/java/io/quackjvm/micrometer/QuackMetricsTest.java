package io.quackjvm.micrometer;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.WriteConflictException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The meters of {@link QuackMetrics}, moved by real operations on real DuckDB databases. */
class QuackMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void closeRegistry() {
        registry.close();
    }

    static IndexedCollection<Car> cars(DuckDBDatabase db, String name, int count, int cacheSize) {
        DuckDBDatabase.CollectionBuilder<Car, Integer> builder = db.collection(Car.CAR_ID).name(name)
                .columnarLayout(ColumnarLayout.ofRecord(Car.class));
        if (cacheSize > 0) {
            builder.objectCacheSize(cacheSize);
        }
        IndexedCollection<Car> cars = builder.build();
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addAll(carsFrom(0, count));
        return cars;
    }

    static List<Car> carsFrom(int from, int to) {
        List<Car> cars = new ArrayList<>();
        for (int i = from; i < to; i++) {
            cars.add(Car.of(i));
        }
        return cars;
    }

    static Car lookup(IndexedCollection<Car> cars, int key) {
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, key))) {
            Iterator<Car> it = rs.iterator();
            return it.hasNext() ? it.next() : null;
        }
    }

    /** The operation timer of these tags, or {@code null} while nothing was recorded under them. */
    private Timer operations(String collection, String operation, String outcome) {
        return registry.find("quackjvm.operations")
                .tags("collection", collection, "operation", operation, "outcome", outcome).timer();
    }

    private long count(String collection, String operation) {
        Timer t = operations(collection, operation, "success");
        return t == null ? 0 : t.count();
    }

    private double gauge(String name) {
        Gauge g = registry.find(name).gauge();
        assertNotNull(g, name + " is not registered");
        return g.value();
    }

    private double cache(String name, String collection) {
        Meter m = registry.find(name).tag("collection", collection).meter();
        assertNotNull(m, name + " of " + collection + " is not registered");
        if (m instanceof FunctionCounter c) {
            return c.count();
        }
        return ((Gauge) m).value();
    }

    @Test
    void eachOperationMovesItsTimerByOnePerCall() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build();
             QuackMetrics metrics = new QuackMetrics(db)) {
            IndexedCollection<Car> cars = cars(db, "car", 100, 0);
            metrics.bindTo(registry);

            for (int k = 1; k <= 3; k++) {
                assertEquals(k, lookup(cars, k).carId());
            }
            Timer lookups = operations("car", "lookup", "success");
            assertNotNull(lookups, "no lookup timer after three lookups");
            assertEquals(3, lookups.count());
            assertTrue(lookups.totalTime(TimeUnit.NANOSECONDS) > 0);

            try (ResultSet<Car> fords = cars.retrieve(equal(Car.MANUFACTURER, "Ford"))) {
                assertEquals(20, fords.stream().count());
            }
            assertTrue(count("car", "retrieval") >= 1, "a retrieval was not timed");

            long counts = count("car", "count");
            try (ResultSet<Car> fords = cars.retrieve(equal(Car.MANUFACTURER, "Ford"))) {
                assertEquals(20, fords.size());
            }
            assertEquals(counts + 1, count("car", "count"));

            cars.add(Car.of(500));
            assertEquals(1, count("car", "add"));
            cars.remove(Car.of(500));
            assertEquals(1, count("car", "remove"));

            try (DuckDBBulkWriter<Car> w = db.bulkWriter(cars)) {
                w.addAll(carsFrom(600, 650));
                w.commit();
            }
            assertEquals(1, count("car", "bulk_write"));

            assertEquals(5, db.from(cars).groupBy(Car.MANUFACTURER).count().size());
            assertEquals(1, count("car", "aggregate"));

            assertEquals(3, db.query("SELECT * FROM range(3)").list(Long.class).size());
            assertEquals(1, count("none", "sql"));
            assertNull(operations("none", "sql", "failure"), "a failure recorded before any statement failed");

            assertThrows(QuackException.class, () -> db.query("SELECT error('boom')").scalar(String.class));
            Timer failures = operations("none", "sql", "failure");
            assertNotNull(failures, "a failed statement was not recorded as a failure");
            assertEquals(1, failures.count());
            assertEquals(1, count("none", "sql"), "a failed statement was recorded as a success");
            for (Timer t : registry.find("quackjvm.operations").timers()) {
                assertTrue(t.totalTime(TimeUnit.NANOSECONDS) > 0, () -> t.getId() + " counts with no time");
            }
        }
    }

    @Test
    void aWriterThatWaitsForTheWriteLockIsTimed() throws Exception {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).name("car")
                .columnarLayout(ColumnarLayout.ofRecord(Car.class)).build();
             QuackMetrics metrics = new QuackMetrics(p)) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            metrics.bindTo(registry);
            Timer waits = registry.find("quackjvm.write.lock.wait").tag("collection", "car").timer();
            assertNotNull(waits, "the lock-wait timer of a collection known at bind time is registered at once");
            assertEquals(0, waits.count());

            CountDownLatch firstAdded = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(
                    () -> cars.update(List.of(), pausingAfterOne(0, firstAdded, release)));
            FutureTask<Boolean> second = new FutureTask<>(() -> cars.add(Car.of(10)));
            try {
                assertTrue(firstAdded.await(60, TimeUnit.SECONDS));
                Thread writer = new Thread(second, "second-writer");
                writer.start();
                // the wait is timed only if the second writer has parked on the lock before the first lets go
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                Thread.State state;
                while ((state = writer.getState()) != Thread.State.WAITING) {
                    assertTrue(state != Thread.State.TERMINATED && System.nanoTime() < deadline,
                            "the second writer never waited; its state: " + state);
                    Thread.sleep(1);
                }
                assertFalse(second.isDone(), "the second writer did not wait for the first");
            } finally {
                release.countDown();
            }
            assertTrue(first.get(60, TimeUnit.SECONDS));
            assertTrue(second.get(60, TimeUnit.SECONDS));
            assertEquals(1, waits.count());
            assertTrue(waits.totalTime(TimeUnit.NANOSECONDS) > 0);
            assertEquals(2, count("car", "add"));
            assertEquals(3, cars.size());
        }
    }

    /**
     * Cars {@code from + 1} and {@code from + 2}; before handing out the second it waits, so the transaction that
     * added the first stays open, holding the collection's write lock and a connection.
     */
    static Iterable<Car> pausingAfterOne(int from, CountDownLatch firstAdded, CountDownLatch release) {
        return () -> new Iterator<>() {
            int served;

            @Override
            public boolean hasNext() {
                if (served == 1) {
                    firstAdded.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return served < 2;
            }

            @Override
            public Car next() {
                return Car.of(from + ++served);
            }
        };
    }

    @Test
    void aWriteThatLosesARaceIsCountedAsAConflict() throws Exception {
        try (DuckDBDatabase db = DuckDBDatabase.builder().serializeWrites(false).build();
             QuackMetrics metrics = new QuackMetrics(db)) {
            IndexedCollection<Car> cars = cars(db, "car", 0, 0);
            metrics.bindTo(registry);
            Counter conflicts = registry.find("quackjvm.write.conflicts").tag("collection", "car").counter();
            assertNotNull(conflicts, "the conflict counter of a collection known at bind time is registered at once");
            assertEquals(0.0, conflicts.count());

            CountDownLatch firstAdded = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            // the first writer's open transaction has written car 1; the second writes car 1 meanwhile
            CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(
                    () -> cars.update(List.of(), pausingAfterOne(0, firstAdded, release)));
            int lost = 0;
            try {
                assertTrue(firstAdded.await(60, TimeUnit.SECONDS));
                try {
                    cars.add(Car.of(1));
                } catch (WriteConflictException e) {
                    lost++;
                }
            } finally {
                release.countDown();
            }
            try {
                first.get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                assertTrue(e.getCause() instanceof WriteConflictException, () -> "not a conflict: " + e.getCause());
                lost++;
            }
            assertEquals(1, lost, "one of the two writers of car 1 loses");
            assertEquals(1.0, conflicts.count());
            assertNotNull(operations("car", "add", "failure"), "the lost write was not timed as a failure");
        }
    }

    @Test
    void poolGaugesShowTheConnectionsLentAndIdle() throws Exception {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build();
             QuackMetrics metrics = new QuackMetrics(db)) {
            IndexedCollection<Car> cars = cars(db, "car", 10, 0);
            metrics.bindTo(registry);
            lookup(cars, 3);
            assertTrue(gauge("quackjvm.pool.connections.idle") >= 1, "no idle connection after a query");
            assertEquals(0.0, gauge("quackjvm.pool.connections.active"));
            // a write paused inside its transaction holds a connection
            CountDownLatch firstAdded = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Boolean> write = CompletableFuture.supplyAsync(
                    () -> cars.update(List.of(), pausingAfterOne(100, firstAdded, release)));
            try {
                assertTrue(firstAdded.await(60, TimeUnit.SECONDS));
                assertEquals(1.0, gauge("quackjvm.pool.connections.active"), "a write's connection is not counted");
            } finally {
                release.countDown();
            }
            assertTrue(write.get(60, TimeUnit.SECONDS));
            assertEquals(0.0, gauge("quackjvm.pool.connections.active"));
        }
    }

    @Test
    void cacheMetersFollowTheObjectCacheOfEveryCollectionIncludingOnesBuiltLater() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build();
             QuackMetrics metrics = new QuackMetrics(db)) {
            IndexedCollection<Car> cars = cars(db, "car", 50, 100);
            metrics.bindTo(registry);
            assertEquals(0.0, cache("quackjvm.cache.hits", "car"));
            lookup(cars, 7);
            assertEquals(1.0, cache("quackjvm.cache.misses", "car"));
            lookup(cars, 7);
            lookup(cars, 7);
            assertEquals(2.0, cache("quackjvm.cache.hits", "car"));
            assertEquals(1.0, cache("quackjvm.cache.misses", "car"));
            assertEquals(1.0, cache("quackjvm.cache.size", "car"));
            assertEquals(0.0, cache("quackjvm.cache.evictions", "car"));

            // a collection built after bindTo: its meters appear with its first operation
            IndexedCollection<Car> later = cars(db, "later", 20, 10);
            assertNotNull(registry.find("quackjvm.cache.hits").tag("collection", "later").functionCounter(),
                    "the first writes of a new collection did not register its cache meters");
            lookup(later, 1);
            lookup(later, 1);
            assertEquals(1.0, cache("quackjvm.cache.hits", "later"));
            assertEquals(1.0, cache("quackjvm.cache.misses", "later"));
            assertEquals(2.0, cache("quackjvm.cache.hits", "car"), "one collection's hits counted for another");
            assertEquals(1, count("later", "add"));
        }
    }

    @Test
    void theBytesGaugeIsTheSizeOfTheDatabase(@TempDir Path dir) {
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("shop.duckdb")).build();
             QuackMetrics metrics = new QuackMetrics(db)) {
            cars(db, "car", 1_000, 0);
            metrics.bindTo(registry);
            Gauge bytes = registry.find("quackjvm.bytes.used").gauge();
            assertNotNull(bytes);
            assertEquals("bytes", bytes.getId().getBaseUnit());
            assertTrue(bytes.value() > 0, "bytes used " + bytes.value());
            assertEquals((double) db.getBytesUsed(), bytes.value());
        }
        try (DuckDBDatabase db = DuckDBDatabase.builder().inMemory().memoryLimit("256MB").build();
             QuackMetrics metrics = new QuackMetrics(db)) {
            cars(db, "car", 1_000, 0);
            SimpleMeterRegistry other = new SimpleMeterRegistry();
            metrics.bindTo(other);
            assertTrue(other.find("quackjvm.bytes.used").gauge().value() > 0);
            other.close();
        }
    }

    @Test
    void aPersistenceIsBoundWithItsCollectionAndItsDatabase() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).name("fleet")
                .columnarLayout(ColumnarLayout.ofRecord(Car.class)).objectCacheSize(10).build();
             QuackMetrics metrics = new QuackMetrics(p, Tags.of("service", "shop"))) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addAll(carsFrom(0, 20));
            metrics.bindTo(registry);
            lookup(cars, 4);
            lookup(cars, 4);
            cars.add(Car.of(100));
            assertEquals(1, count("fleet", "add"));
            assertEquals(1.0, cache("quackjvm.cache.hits", "fleet"));
            assertEquals(1.0, cache("quackjvm.cache.misses", "fleet"));
            assertTrue(gauge("quackjvm.pool.connections.idle") >= 1);
            assertTrue(gauge("quackjvm.bytes.used") > 0);
            assertFalse(registry.getMeters().isEmpty());
            for (Meter m : registry.getMeters()) {
                assertEquals("shop", m.getId().getTag("service"), () -> m.getId() + " lacks the extra tag");
            }
        }
    }

    @Test
    void aPersistenceOfASharedDatabaseRecordsOnlyItsOwnCollection() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = cars(db, "car", 10, 0);
            IndexedCollection<Car> other = cars(db, "other", 10, 0);
            DuckDBPersistence<?, ?> persistence = (DuckDBPersistence<?, ?>) cars.getPersistence();
            try (QuackMetrics metrics = new QuackMetrics(persistence)) {
                metrics.bindTo(registry);
                lookup(cars, 1);
                lookup(other, 1);
                db.query("SELECT 1").scalar(Integer.class);
                assertEquals(1, count("car", "lookup"));
                assertNull(operations("other", "lookup", "success"), "another collection's lookup was recorded");
                assertNull(operations("none", "sql", "success"), "the database's SQL was recorded");
                assertNull(registry.find("quackjvm.cache.hits").tag("collection", "other").meter());
            }
        }
    }

    @Test
    void closeStopsRecordingAndIsIdempotent() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = cars(db, "car", 10, 0);
            QuackMetrics metrics = new QuackMetrics(db);
            metrics.bindTo(registry);
            lookup(cars, 1);
            lookup(cars, 2);
            Timer lookups = operations("car", "lookup", "success");
            assertEquals(2, lookups.count());
            double total = lookups.totalTime(TimeUnit.NANOSECONDS);

            metrics.close();
            lookup(cars, 3);
            cars.add(Car.of(50));
            assertEquals(2, lookups.count(), "a closed QuackMetrics still records");
            assertEquals(total, lookups.totalTime(TimeUnit.NANOSECONDS));
            assertNull(operations("car", "add", "success"));
            assertDoesNotThrow(metrics::close);
            assertThrows(IllegalStateException.class, () -> metrics.bindTo(new SimpleMeterRegistry()));
        }
    }

    @Test
    void aQuackMetricsIsBoundOnce() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build();
             QuackMetrics metrics = new QuackMetrics(db)) {
            metrics.bindTo(registry);
            SimpleMeterRegistry second = new SimpleMeterRegistry();
            assertThrows(IllegalStateException.class, () -> metrics.bindTo(second));
            assertTrue(second.getMeters().isEmpty());
            second.close();
        }
    }

    @Test
    void aClosedDatabaseCannotBeBound() {
        DuckDBDatabase db = DuckDBDatabase.builder().build();
        db.close();
        try (QuackMetrics metrics = new QuackMetrics(db)) {
            assertThrows(PersistenceClosedException.class, () -> metrics.bindTo(registry));
        }
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).build();
        p.close();
        try (QuackMetrics metrics = new QuackMetrics(p)) {
            assertThrows(PersistenceClosedException.class, () -> metrics.bindTo(registry));
        }
    }

    @Test
    void theGaugesOfAClosedDatabaseReadNaN(@TempDir Path dir) {
        DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("shop.duckdb")).build();
        try (QuackMetrics metrics = new QuackMetrics(db)) {
            IndexedCollection<Car> cars = cars(db, "car", 10, 10);
            IndexedCollection<Car> second = cars(db, "second", 10, 10);
            metrics.bindTo(registry);
            lookup(cars, 1);
            assertEquals(1.0, cache("quackjvm.cache.misses", "car"));

            db.close(second);
            assertTrue(Double.isNaN(cache("quackjvm.cache.size", "second")), "a closed collection's cache");
            assertEquals(1.0, cache("quackjvm.cache.misses", "car"));

            db.close();
            for (String name : List.of("quackjvm.pool.connections.active", "quackjvm.pool.connections.idle",
                    "quackjvm.bytes.used")) {
                assertTrue(Double.isNaN(assertDoesNotThrow(() -> gauge(name))), name + " of a closed database");
            }
            for (String name : List.of("quackjvm.cache.hits", "quackjvm.cache.misses", "quackjvm.cache.evictions",
                    "quackjvm.cache.size")) {
                assertTrue(Double.isNaN(assertDoesNotThrow(() -> cache(name, "car"))), name + " of a closed database");
            }
        }
    }

    @Test
    void theGaugesOfAClosedPersistenceReadNaN() {
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).name("car")
                .columnarLayout(ColumnarLayout.ofRecord(Car.class)).build();
        try (QuackMetrics metrics = new QuackMetrics(p)) {
            metrics.bindTo(registry);
            assertFalse(Double.isNaN(gauge("quackjvm.pool.connections.idle")));
            assertEquals(0.0, cache("quackjvm.cache.hits", "car"));
            p.close();
            for (String name : List.of("quackjvm.pool.connections.active", "quackjvm.pool.connections.idle",
                    "quackjvm.bytes.used")) {
                assertTrue(Double.isNaN(gauge(name)), name + " of a closed persistence");
            }
            assertTrue(Double.isNaN(cache("quackjvm.cache.hits", "car")));
        }
    }

    @Test
    void theMeterListIsExactlyTheDocumentedOne() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build();
             QuackMetrics metrics = new QuackMetrics(db)) {
            IndexedCollection<Car> cars = cars(db, "car", 10, 0);
            metrics.bindTo(registry);
            lookup(cars, 1);
            List<String> names = registry.getMeters().stream().map(m -> m.getId().getName() + " "
                    + m.getId().getType()).distinct().sorted().toList();
            assertEquals(List.of(
                    "quackjvm.bytes.used GAUGE",
                    "quackjvm.cache.evictions COUNTER",
                    "quackjvm.cache.hits COUNTER",
                    "quackjvm.cache.misses COUNTER",
                    "quackjvm.cache.size GAUGE",
                    "quackjvm.operations TIMER",
                    "quackjvm.pool.connections.active GAUGE",
                    "quackjvm.pool.connections.idle GAUGE",
                    "quackjvm.write.conflicts COUNTER",
                    "quackjvm.write.lock.wait TIMER"), names);
        }
    }
}
