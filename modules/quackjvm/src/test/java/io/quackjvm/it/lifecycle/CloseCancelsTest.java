package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.it.Car;
import java.util.Iterator;
import io.quackjvm.api.PersistenceClosedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code close()} cancels the statements still running in the database and releases its file. */
class CloseCancelsTest {

    /** Runs for many minutes unless cancelled. */
    private static final String ENDLESS = "SELECT count(*) FROM range(100000) a, range(100000) b, range(100000) c";

    @TempDir
    Path dir;

    @Test
    void closeCancelsARunningQueryAndReleasesTheFile() throws Exception {
        Path file = dir.resolve("busy.duckdb");
        DuckDBDatabase database = DuckDBDatabase.builder().file(file).build();
        CountDownLatch calling = new CountDownLatch(1);
        CompletableFuture<Long> query = CompletableFuture.supplyAsync(() -> {
            calling.countDown();
            return database.query(ENDLESS).scalar(Long.class);
        });
        assertTrue(calling.await(30, TimeUnit.SECONDS));
        // the statement is running once the process has spent a second of CPU time after the call began
        // (checking, preparing and beginning take a few milliseconds)
        Duration base = cpu();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (cpu().minus(base).compareTo(Duration.ofSeconds(1)) < 0 && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertTrue(cpu().minus(base).compareTo(Duration.ofSeconds(1)) >= 0, "the query never ran");
        assertTrue(!query.isDone(), "the query ended by itself");
        long start = System.nanoTime();
        database.close();
        long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(closeMillis < 20_000, "close() took " + closeMillis + " ms");
        ExecutionException e = assertThrows(ExecutionException.class, () -> query.get(20, TimeUnit.SECONDS));
        assertInstanceOf(PersistenceClosedException.class, e.getCause(), String.valueOf(e.getCause()));
        assertTrue(e.getCause().getMessage().contains("was closed while it ran"), e.getCause().getMessage());
        try (DuckDBDatabase again = DuckDBDatabase.builder().file(file).build()) {
            assertEquals(1L, again.query("SELECT count(*) FROM range(1)").scalar(Long.class));
        }
    }

    @Test
    void aBulkWriterCutOffByCloseGetsPersistenceClosedException() throws Exception {
        Path file = dir.resolve("load.duckdb");
        DuckDBDatabase database = DuckDBDatabase.builder().file(file).build();
        IndexedCollection<Car> cars = database.collection(Car.CAR_ID).build();
        CountDownLatch loading = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        // objects until the load has written chunks, then (after the database was closed) more of them
        Iterable<Car> objects = () -> new Iterator<>() {
            int next;

            @Override
            public boolean hasNext() {
                return next < 400_000;
            }

            @Override
            public Car next() {
                if (next == 200_000) {
                    loading.countDown();
                    try {
                        assertTrue(closed.await(60, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                return Car.of(next++);
            }
        };
        CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
            try (DuckDBBulkWriter<Car> writer = database.bulkWriter(cars)) {
                writer.addAll(objects);
                writer.commit();
            }
        });
        assertTrue(loading.await(60, TimeUnit.SECONDS));
        database.close();
        closed.countDown();
        ExecutionException e = assertThrows(ExecutionException.class, () -> load.get(60, TimeUnit.SECONDS));
        assertInstanceOf(PersistenceClosedException.class, e.getCause(), String.valueOf(e.getCause()));
        try (DuckDBDatabase again = DuckDBDatabase.builder().file(file).build()) {
            assertEquals(0L, again.query("SELECT count(*) FROM range(0)").scalar(Long.class));
        }
    }

    private static Duration cpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow();
    }
}
