package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.WriteConflictException;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** With serializeWrites(false), every failure caused by a concurrent writer is a WriteConflictException. */
class WriteConflictTest {

    private static final int SHARED_KEYS = 40;

    @Test
    void everyFailureFromAConcurrentWriterIsAWriteConflictWithItsCause() throws Exception {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).serializeWrites(false)
                .appenderThreshold(8).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            Map<String, Throwable> others = new ConcurrentHashMap<>();
            AtomicInteger conflicts = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(6);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < 100; i++) {
                        try {
                            switch (random.nextInt(4)) {
                                case 0 -> cars.add(Car.of(random.nextInt(SHARED_KEYS)).withPrice(random.nextInt(9)));
                                case 1 -> cars.remove(Car.of(random.nextInt(SHARED_KEYS)));
                                case 2 -> {
                                    // above appenderThreshold: the Appender path
                                    List<Car> batch = new ArrayList<>();
                                    int from = random.nextInt(SHARED_KEYS);
                                    for (int k = 0; k < 12; k++) {
                                        batch.add(Car.of((from + k) % SHARED_KEYS).withPrice(random.nextInt(9)));
                                    }
                                    cars.addAll(batch);
                                }
                                default -> cars.update(List.of(Car.of(random.nextInt(SHARED_KEYS))),
                                        List.of(Car.of(random.nextInt(SHARED_KEYS)).withPrice(random.nextInt(9))));
                            }
                        } catch (WriteConflictException e) {
                            assertNotNull(e.getCause(), "a conflict carries DuckDB's exception");
                            conflicts.incrementAndGet();
                        } catch (RuntimeException e) {
                            others.putIfAbsent(e.getClass().getName() + ": " + e.getMessage(), e);
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
            pool.shutdown();
            others.values().forEach(Throwable::printStackTrace);
            assertEquals(Map.of(), others, "failures that are not WriteConflictException");
            assertTrue(conflicts.get() > 0, "the workload produced no conflict at all, so it tested nothing");
            // nothing half-written: every stored car has exactly its index row
            for (Car c : cars) {
                assertTrue(cars.retrieve(com.googlecode.cqengine.query.QueryFactory.and(
                        com.googlecode.cqengine.query.QueryFactory.equal(Car.MANUFACTURER, c.manufacturer()),
                        com.googlecode.cqengine.query.QueryFactory.equal(Car.CAR_ID, c.carId()))).isNotEmpty());
            }
        }
    }
}
