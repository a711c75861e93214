package io.quackjvm.it.operations;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.ConnectionPoolStats;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBOptions;
import io.quackjvm.api.QueryCancelledException;
import io.quackjvm.api.QueryTimeoutException;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Timeouts and interrupts cancel a statement inside DuckDB, with statements that would otherwise run for minutes
 * or hours: the caller gets the exception of why, the connection goes back to the pool with no transaction open,
 * and writers and later queries go on. The preemptive limits only keep a broken build from hanging; they are far
 * above any cancelled statement's time.
 */
class TimeoutsTest {

    /** Hashes and sums 10^12 numbers: hours of work on any machine. */
    static final String ENDLESS = "SELECT sum(hash(i)) FROM range(1000000000000) t(i)";
    private static final Duration GUARD = Duration.ofSeconds(60);

    /** Cars whose join with themselves on the manufacturer has about 10^10 pairs (5 makers). */
    static IndexedCollection<Car> cars(DuckDBDatabase db, String name, int n) {
        IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name(name).build();
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        try (DuckDBBulkWriter<Car> w = db.bulkWriter(cars)) {
            for (int i = 0; i < n; i++) {
                w.add(Car.of(i));
            }
            w.commit();
        }
        return cars;
    }

    /** The database is as before the cancelled statement: no connection lent, a write and a query run. */
    static void assertClean(DuckDBDatabase db, IndexedCollection<Car> cars) {
        ConnectionPoolStats pool = db.poolStats();
        assertEquals(0, pool.inUse(), "a connection is still lent after the cancelled statement: " + pool);
        int id = 1_000_000 + cars.size();
        // a write commits: nothing holds the collection's write lock or left a transaction behind
        assertTimeoutPreemptively(GUARD, () -> assertTrue(cars.add(Car.of(id))));
        assertEquals(1, cars.retrieve(equal(Car.CAR_ID, id)).size());
        // every idle connection runs a statement, so none was handed back in an aborted transaction
        for (int i = 0; i < pool.idle() + 1; i++) {
            assertEquals(42L, db.query("SELECT 42").scalar(Long.class));
        }
    }

    @Test
    void aSqlStatementPastItsTimeoutIsCancelledInsideDuckDB() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = cars(db, "car", 1000);
            QueryTimeoutException e = assertTimeoutPreemptively(GUARD, () -> assertThrows(QueryTimeoutException.class,
                    () -> db.query(ENDLESS).timeout(Duration.ofMillis(200)).scalar(Long.class)));
            assertInstanceOf(SQLException.class, e.getCause(), "the driver's failure of the cancelled statement");
            assertTrue(e.getMessage().contains("PT0.2S"), e.getMessage());
            // the literal of the SQL is elided in the message
            assertTrue(e.getMessage().contains("range(?)"), e.getMessage());
            assertClean(db, cars);
        }
    }

    @Test
    void theDatabaseTimeoutBoundsJoinsAndSqlAndACallMayOverrideIt() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().queryTimeout(Duration.ofMillis(300)).build()) {
            IndexedCollection<Car> cars = cars(db, "car", 200_000);
            IndexedCollection<Car> others = cars(db, "other", 200_000);
            // 200,000 x 40,000 pairs to count: minutes
            assertTimeoutPreemptively(GUARD, () -> assertThrows(QueryTimeoutException.class,
                    () -> db.join(cars, others).on(Car.MANUFACTURER, Car.MANUFACTURER).count()));
            assertTimeoutPreemptively(GUARD, () -> assertThrows(QueryTimeoutException.class,
                    () -> db.query(ENDLESS).scalar(Long.class)));
            // a call of its own time: the join's count with a shorter one, restricted so that it finishes
            assertEquals(1L, db.join(cars, others).on(Car.MANUFACTURER, Car.MANUFACTURER)
                    .whereLeft(equal(Car.CAR_ID, 7)).whereRight(equal(Car.CAR_ID, 12))
                    .with(DuckDBOptions.timeout(Duration.ofSeconds(30))).count());
            assertTimeoutPreemptively(GUARD, () -> assertThrows(QueryTimeoutException.class,
                    () -> db.join(cars, others).on(Car.MANUFACTURER, Car.MANUFACTURER)
                            .with(DuckDBOptions.timeout(Duration.ofMillis(100))).count()));
            // quick statements run as before
            assertEquals(200_000, db.from(cars).count());
            assertClean(db, cars);
        }
    }

    @Test
    void anInterruptCancelsTheStatementItsThreadWaitsOnAndKeepsTheInterruptStatus() throws Exception {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = cars(db, "car", 1000);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                AtomicReference<Thread> worker = new AtomicReference<>();
                AtomicBoolean interruptedAfter = new AtomicBoolean();
                Future<Throwable> outcome = pool.submit(() -> {
                    worker.set(Thread.currentThread());
                    try {
                        db.query(ENDLESS).scalar(Long.class);
                        return null;
                    } catch (RuntimeException e) {
                        interruptedAfter.set(Thread.interrupted()); // reads and clears it for the pool's next task
                        return e;
                    }
                });
                // the statement has its connection once it runs
                assertTimeoutPreemptively(GUARD, () -> {
                    while (db.poolStats().inUse() == 0) {
                        Thread.onSpinWait();
                    }
                });
                Thread.sleep(100);
                worker.get().interrupt();
                Throwable e = outcome.get(GUARD.toSeconds(), TimeUnit.SECONDS);
                assertInstanceOf(QueryCancelledException.class, e, String.valueOf(e));
                assertInstanceOf(SQLException.class, e.getCause(), "cancelled inside DuckDB, not before it ran");
                assertTrue(interruptedAfter.get(), "the thread's interrupt status was cleared");
            } finally {
                pool.shutdownNow();
            }
            assertClean(db, cars);
        }
    }

    @Test
    void anInterruptedThreadDoesNotStartAStatement() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = cars(db, "car", 10);
            Thread.currentThread().interrupt();
            try {
                QueryCancelledException e = assertThrows(QueryCancelledException.class,
                        () -> db.from(cars).groupBy(Car.MANUFACTURER).count());
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status was cleared");
                assertTrue(e.getMessage().contains("was not started"), e.getMessage());
            } finally {
                Thread.interrupted();
            }
            assertClean(db, cars);
        }
    }

    @Test
    void aRetrievalWithATimeoutInItsQueryOptionsRunsAndAnInvalidTimeoutIsRefused() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().queryTimeout(Duration.ofSeconds(3)).build()) {
            IndexedCollection<Car> cars = cars(db, "car", 100);
            assertEquals(20, cars.retrieve(equal(Car.MANUFACTURER, "Ford"),
                    com.googlecode.cqengine.query.QueryFactory.queryOptions(
                            DuckDBOptions.timeout(Duration.ofMinutes(1)))).size());
            assertThrows(IllegalArgumentException.class, () -> DuckDBOptions.timeout(Duration.ZERO));
            assertThrows(IllegalArgumentException.class, () -> DuckDBDatabase.builder()
                    .queryTimeout(Duration.ofSeconds(-1)));
            assertThrows(IllegalArgumentException.class, () -> db.query("SELECT 1").timeout(Duration.ZERO));
            assertEquals(0, db.poolStats().inUse());
        }
    }

    @Test
    void closingTheDatabaseCancelsARunningCollectionStatement() throws Exception {
        DuckDBDatabase db = DuckDBDatabase.builder().build();
        IndexedCollection<Car> cars = cars(db, "car", 200_000);
        IndexedCollection<Car> others = cars(db, "other", 200_000);
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                db.join(cars, others).on(Car.MANUFACTURER, Car.MANUFACTURER).count();
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
        Thread.sleep(100);
        assertTimeoutPreemptively(GUARD, () -> { db.close(); });
        Throwable e = outcome.get(GUARD.toSeconds(), TimeUnit.SECONDS);
        assertInstanceOf(io.quackjvm.api.PersistenceClosedException.class, e, String.valueOf(e));
    }
}
