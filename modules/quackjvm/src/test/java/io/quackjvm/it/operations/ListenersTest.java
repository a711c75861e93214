package io.quackjvm.it.operations;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.Operation;
import io.quackjvm.api.OperationListener;
import io.quackjvm.it.Car;
import io.quackjvm.it.Parked;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an {@link OperationListener} hears: each kind of operation once it ends, lock waits, and no more once removed. */
class ListenersTest {

    record Heard(String collection, Operation operation, long nanos, long rows, boolean failed) {
    }

    static final class Recorder implements OperationListener {
        final List<Heard> heard = new CopyOnWriteArrayList<>();
        final List<Long> lockWaits = new CopyOnWriteArrayList<>();

        @Override
        public void operationEnded(String collection, Operation operation, long nanos, long rows, boolean failed) {
            heard.add(new Heard(collection, operation, nanos, rows, failed));
        }

        @Override
        public void writeLockWaited(String collection, long nanos) {
            lockWaits.add(nanos);
        }

        List<Heard> take(Operation operation) {
            List<Heard> out = heard.stream().filter(h -> h.operation() == operation).toList();
            heard.clear();
            return out;
        }
    }

    @Test
    void eachOperationIsHeardOnceItEndsWithItsCollectionAndRows(@TempDir Path dir) {
        Recorder r = new Recorder();
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = TimeoutsTest.cars(db, "car", 100);
            db.addListener(r);
            r.heard.clear();

            assertEquals(1, cars.retrieve(equal(Car.CAR_ID, 3)).stream().count());
            List<Heard> lookups = r.take(Operation.LOOKUP);
            assertEquals(1, lookups.size(), String.valueOf(lookups));
            assertEquals("car", lookups.get(0).collection());
            assertFalse(lookups.get(0).failed());

            assertEquals(20, cars.retrieve(equal(Car.MANUFACTURER, "Ford")).stream().count());
            assertFalse(r.take(Operation.RETRIEVAL).isEmpty());

            assertEquals(20, cars.retrieve(equal(Car.MANUFACTURER, "Ford")).size());
            List<Heard> counts = r.take(Operation.COUNT);
            assertEquals(1, counts.size(), String.valueOf(counts));
            assertEquals(1, counts.get(0).rows());

            cars.add(Car.of(500));
            assertEquals(1, r.take(Operation.ADD).size());
            cars.remove(Car.of(500));
            assertEquals(1, r.take(Operation.REMOVE).size());
            try (DuckDBBulkWriter<Car> w = db.bulkWriter(cars)) {
                w.add(Car.of(600));
                w.add(Car.of(601));
                w.commit();
            }
            assertEquals(1, r.take(Operation.BULK_WRITE).size());

            assertEquals(5, db.from(cars).groupBy(Car.MANUFACTURER).count().size());
            List<Heard> aggregates = r.take(Operation.AGGREGATE);
            assertEquals(1, aggregates.size());
            assertEquals(5, aggregates.get(0).rows());

            assertEquals(3, db.query("SELECT * FROM range(3)").list(Long.class).size());
            List<Heard> sql = r.take(Operation.SQL);
            assertEquals(1, sql.size());
            assertEquals(null, sql.get(0).collection());
            assertEquals(3, sql.get(0).rows());

            db.export(cars).toParquet(dir.resolve("out"));
            assertEquals(1, r.take(Operation.EXPORT).size());

            // a failed statement is heard as failed
            try {
                db.query("SELECT error('boom')").scalar(String.class);
            } catch (RuntimeException expected) {
                // heard below
            }
            assertTrue(r.take(Operation.SQL).get(0).failed());

            db.removeListener(r);
            cars.add(Car.of(700));
            assertTrue(r.heard.isEmpty(), "a removed listener still hears: " + r.heard);
        }
    }

    @Test
    void aWriterThatWaitsForTheWriteLockIsHeardWithItsWait() throws Exception {
        Recorder r = new Recorder();
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).name("car").build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            p.addListener(r);
            CountDownLatch firstAdded = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            // CQEngine adds the first car of this batch, so its transaction holds the write lock, then waits
            Iterable<Car> pausing = () -> new Iterator<>() {
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
                    return Car.of(++served);
                }
            };
            CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> cars.update(List.of(), pausing));
            assertTrue(firstAdded.await(60, TimeUnit.SECONDS));
            // the second writer's wait is heard only if it has parked on the lock before the first lets go
            FutureTask<Boolean> second = Parked.runUntilParked("second writer", () -> cars.add(Car.of(10)));
            assertFalse(second.isDone(), "the second writer did not wait for the first");
            release.countDown();
            assertTrue(first.get(60, TimeUnit.SECONDS));
            assertTrue(second.get(60, TimeUnit.SECONDS));
            assertEquals(1, r.lockWaits.size(), String.valueOf(r.lockWaits));
            assertTrue(r.lockWaits.get(0) > 0);
            assertEquals(2, r.take(Operation.ADD).size());
            assertEquals(3, cars.size());
        }
    }

    @Test
    void aFailingListenerDoesNotFailTheCall() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = TimeoutsTest.cars(db, "car", 10);
            db.addListener((collection, operation, nanos, rows, failed) -> {
                throw new IllegalStateException("listener bug");
            });
            assertEquals(10L, db.from(cars).count());
            assertTrue(cars.add(Car.of(11)));
        }
    }
}
