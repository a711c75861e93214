package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code close()} called from two threads at once tears the database down once, and the second call returns only
 * when that is done (so that, for example, the file can be opened again as soon as either call returns).
 */
class ConcurrentCloseTest {

    @TempDir
    Path dir;

    @Test
    void aSecondCloseWaitsForTheFirstAndTearsNothingDownTwice() throws Exception {
        AtomicReference<DuckDBPersistence<Car, Integer>> persistence = new AtomicReference<>();
        AtomicReference<Thread> second = new AtomicReference<>();
        AtomicReference<Thread.State> secondDuringTeardown = new AtomicReference<>();
        // Runs inside the first close(), in the middle of its teardown: a second close() starts on another
        // thread, and the teardown goes on once that one has either returned or is blocked waiting.
        Runnable duringTeardown = () -> {
            if (second.get() != null) {
                return;
            }
            Thread t = new Thread(() -> persistence.get().close(), "second-close");
            second.set(t);
            t.start();
            Thread.State state;
            while ((state = t.getState()) != Thread.State.BLOCKED && state != Thread.State.WAITING
                    && state != Thread.State.TERMINATED) {
                Thread.onSpinWait();
            }
            secondDuringTeardown.set(state);
        };
        TestPool pool = new TestPool(sql -> sql, duringTeardown);
        Path file = dir.resolve("cars.duckdb");
        persistence.set(DuckDBPersistence.builder(Car.CAR_ID).file(file).connectionPool(pool).build());
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence.get());
        cars.addAll(Car.firstN(10));

        persistence.get().close();
        second.get().join();

        assertFalse(secondDuringTeardown.get() == Thread.State.TERMINATED,
                "A second close() returned while the first was still tearing the database down");
        assertEquals(1, pool.poolCloses.get(), "The database was torn down more than once");
        try (DuckDBPersistence<Car, Integer> again = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            assertEquals(10, new ConcurrentIndexedCollection<>(again).size());
        }
    }
}
