package io.quackjvm.it.operations;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.QueryCancelledException;
import io.quackjvm.api.QueryTimeoutException;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static io.quackjvm.it.operations.TimeoutsTest.ENDLESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code maxConcurrentQueries}: queries beyond the limit wait their turn in arrival order and fail after the
 * admission timeout; lookups by key and writes do not wait for it.
 */
class AdmissionTest {

    private static final Duration GUARD = Duration.ofSeconds(60);

    /** Runs the endless statement on another thread, holding the one turn until its own timeout ends it. */
    private static Future<Throwable> holdTheTurn(ExecutorService pool, DuckDBDatabase db, Duration howLong) {
        Future<Throwable> f = pool.submit(() -> {
            try {
                db.query(ENDLESS).timeout(howLong).scalar(Long.class);
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        assertTimeoutPreemptively(GUARD, () -> {
            while (db.poolStats().inUse() == 0) {
                Thread.onSpinWait();
            }
        });
        try {
            Thread.sleep(200); // from its connection to its turn is a few statements
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return f;
    }

    @Test
    void aQueryBeyondTheLimitFailsAfterTheAdmissionTimeoutWhileLookupsAndWritesGoOn() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (DuckDBDatabase db = DuckDBDatabase.builder().maxConcurrentQueries(1)
                .admissionTimeout(Duration.ofMillis(300)).build()) {
            IndexedCollection<Car> cars = TimeoutsTest.cars(db, "car", 1000);
            Future<Throwable> holder = holdTheTurn(pool, db, Duration.ofSeconds(4));
            QueryTimeoutException e = assertTimeoutPreemptively(GUARD, () -> assertThrows(QueryTimeoutException.class,
                    () -> db.query("SELECT count(*) FROM car").scalar(Long.class)));
            assertTrue(e.getMessage().contains("maxConcurrentQueries(1)"), e.getMessage());
            assertThrows(QueryTimeoutException.class, () -> db.from(cars).count());
            // a lookup by key and a write do not wait for a turn
            assertEquals(1, assertTimeoutPreemptively(GUARD, () -> cars.retrieve(equal(Car.CAR_ID, 3)).size()));
            assertTrue(assertTimeoutPreemptively(GUARD, () -> cars.add(Car.of(5000))));
            assertInstanceOf(QueryTimeoutException.class, holder.get(GUARD.toSeconds(), TimeUnit.SECONDS));
            // the turn is free again
            assertEquals(1001L, db.query("SELECT count(*) FROM car").scalar(Long.class));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void waitingQueriesRunInArrivalOrder() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (DuckDBDatabase db = DuckDBDatabase.builder().maxConcurrentQueries(1)
                .admissionTimeout(Duration.ofSeconds(30)).build()) {
            TimeoutsTest.cars(db, "car", 100);
            Future<Throwable> holder = holdTheTurn(pool, db, Duration.ofSeconds(3));
            List<Future<Long>> waiting = new java.util.ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                int n = i;
                AtomicReference<Thread> runner = new AtomicReference<>();
                // each tells when it ran: the time DuckDB started its statement, after its turn came
                waiting.add(pool.submit(() -> {
                    runner.set(Thread.currentThread());
                    return db.query("SELECT epoch_us(get_current_timestamp())").scalar(Long.class);
                }));
                // the next one arrives after this one waits for its turn: it has its connection, and its thread
                // is parked (the turn is the only wait between the two)
                assertTimeoutPreemptively(GUARD, () -> {
                    while (db.poolStats().inUse() < 1 + n || runner.get() == null
                            || runner.get().getState() != Thread.State.TIMED_WAITING) {
                        Thread.onSpinWait();
                    }
                });
            }
            List<Long> ranAt = new java.util.ArrayList<>();
            for (Future<Long> f : waiting) {
                ranAt.add(f.get(GUARD.toSeconds(), TimeUnit.SECONDS));
            }
            assertInstanceOf(QueryTimeoutException.class, holder.get(GUARD.toSeconds(), TimeUnit.SECONDS));
            assertTrue(ranAt.get(0) < ranAt.get(1) && ranAt.get(1) < ranAt.get(2),
                    "the waiting queries ran in the order they arrived: " + ranAt);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anInterruptWhileWaitingForATurnCancelsTheQueryAndKeepsTheStatus() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (DuckDBDatabase db = DuckDBDatabase.builder().maxConcurrentQueries(1)
                .admissionTimeout(Duration.ofSeconds(30)).build()) {
            TimeoutsTest.cars(db, "car", 10);
            Future<Throwable> holder = holdTheTurn(pool, db, Duration.ofSeconds(3));
            java.util.concurrent.atomic.AtomicBoolean status = new java.util.concurrent.atomic.AtomicBoolean();
            Thread waiter = new Thread(() -> {
                try {
                    db.query("SELECT 1").scalar(Long.class);
                } catch (QueryCancelledException e) {
                    status.set(Thread.currentThread().isInterrupted());
                }
            });
            waiter.start();
            Thread.sleep(200);
            waiter.interrupt();
            waiter.join(GUARD.toMillis());
            assertTrue(status.get(), "the waiter was not cancelled with its interrupt status kept");
            assertInstanceOf(QueryTimeoutException.class, holder.get(GUARD.toSeconds(), TimeUnit.SECONDS));
            assertEquals(0, db.poolStats().inUse());
        } finally {
            pool.shutdownNow();
        }
    }
}
