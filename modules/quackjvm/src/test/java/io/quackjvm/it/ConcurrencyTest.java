package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConcurrencyTest {

    private final ExecutorService pool = Executors.newFixedThreadPool(6);
    private DuckDBPersistence<Car, Integer> persistence;

    @AfterEach
    void tearDown() throws Exception {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        if (persistence != null) {
            persistence.close();
        }
    }

    @Test
    void readersNeverWaitForAnOpenWriteAndDoNotSeeItUntilItCommits() throws Exception {
        persistence = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        cars.add(Car.of(0));
        PausingBatch batch = new PausingBatch(List.of(Car.of(1), Car.of(2)));
        Future<?> writer = pool.submit(() -> cars.update(List.of(), batch, new QueryOptions()));
        assertTrue(batch.firstAdded.await(30, TimeUnit.SECONDS));
        // The write is open (car 1 is added but not committed); readers on other threads finish regardless.
        Future<Integer> size = pool.submit(cars::size);
        Future<Boolean> sees = pool.submit(() -> {
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, 1))) {
                return rs.isNotEmpty();
            }
        });
        assertEquals(1, size.get(30, TimeUnit.SECONDS));
        assertFalse(sees.get(30, TimeUnit.SECONDS));
        batch.release.countDown();
        writer.get(30, TimeUnit.SECONDS);
        assertEquals(3, cars.size());
    }

    @Test
    void writersToOneCollectionTakeTurns() throws Exception {
        persistence = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        PausingBatch batch = new PausingBatch(List.of(Car.of(1), Car.of(2)));
        Future<?> first = pool.submit(() -> cars.update(List.of(), batch, new QueryOptions()));
        assertTrue(batch.firstAdded.await(30, TimeUnit.SECONDS));
        // returns once the second writer is parked on the collection's write lock
        Future<Boolean> second = Parked.runUntilParked("second writer", () -> cars.add(Car.of(3)));
        assertFalse(second.isDone());
        batch.release.countDown();
        first.get(30, TimeUnit.SECONDS);
        second.get(30, TimeUnit.SECONDS);
        assertEquals(3, cars.size());
    }

    @Test
    void concurrentReadersAndWritersKeepEveryObject() throws Exception {
        persistence = DuckDBPersistence.builder(Car.CAR_ID).maxPooledConnections(4).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            int writer = w;
            futures.add(pool.submit(() -> {
                for (int i = 0; i < 100; i++) {
                    int id = writer * 1000 + i;
                    if (i % 10 == 0) {
                        List<Car> batch = new ArrayList<>();
                        for (int j = 0; j < 40; j++) {
                            batch.add(Car.of(writer * 100_000 + 10_000 + i * 40 + j));
                        }
                        cars.addAll(batch);
                    }
                    cars.add(Car.of(id));
                }
            }));
        }
        for (int r = 0; r < 3; r++) {
            futures.add(pool.submit(() -> {
                int last = 0;
                for (int i = 0; i < 200; i++) {
                    int size = cars.size();
                    assertTrue(size >= last, "a committed object disappeared");
                    last = size;
                    try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, i % 100))) {
                        for (Car c : rs) {
                            assertEquals(Car.of(i % 100), c);
                        }
                    }
                }
            }));
        }
        for (Future<?> f : futures) {
            f.get(120, TimeUnit.SECONDS);
        }
        assertEquals(3 * 100 + 3 * 10 * 40, cars.size());
    }

    @Test
    void oneQueryOptionsSharedByThreadsDoesNotDeadlock() throws Exception {
        persistence = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        QueryOptions shared = new QueryOptions();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            all.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 50; i++) {
                    cars.update(List.of(), List.of(Car.of(thread * 100 + i)), shared);
                    try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, thread * 100 + i), shared)) {
                        assertEquals(1, rs.size());
                    }
                }
            }, pool));
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).get(120, TimeUnit.SECONDS);
        assertEquals(200, cars.size());
    }

    @Test
    void aRequestOpenOnOneThreadIsNotSharedWithAnotherThreadUsingTheSameQueryOptions() throws Exception {
        persistence = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        cars.add(Car.of(1));
        QueryOptions shared = new QueryOptions();
        // this thread makes the QueryOptions' first request and keeps it open
        ResultSet<Car> open = cars.retrieve(equal(Car.CAR_ID, 1), shared);
        assertEquals(Car.of(1), open.iterator().next());
        // another thread's write through the same QueryOptions is a request of its own, committed when it returns
        pool.submit(() -> cars.update(List.of(), List.of(Car.of(2)), shared)).get(30, TimeUnit.SECONDS);
        assertEquals(2, (int) pool.submit(() -> cars.size()).get(30, TimeUnit.SECONDS),
                "the other thread's write must not wait for this thread's request");
        // and its end ended nothing of this thread's request, whose result is still readable
        try (ResultSet<Car> again = cars.retrieve(equal(Car.CAR_ID, 2), shared)) {
            assertEquals(Car.of(2), again.iterator().next());
        }
        open.close();
        // each thread can make further requests through it, writes included
        cars.update(List.of(), List.of(Car.of(3)), shared);
        pool.submit(() -> cars.update(List.of(), List.of(Car.of(4)), shared)).get(30, TimeUnit.SECONDS);
        assertEquals(4, cars.size());
    }

    @Test
    void aResultSetMayBeClosedOnAnotherThread() throws Exception {
        persistence = DuckDBPersistence.builder(Car.CAR_ID).maxPooledConnections(1).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        cars.add(Car.of(1));
        ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, 1));
        assertEquals(Car.of(1), rs.iterator().next());
        pool.submit(rs::close).get(30, TimeUnit.SECONDS);
        // the request is over on its own thread too: a write from it commits normally
        cars.add(Car.of(2));
        assertEquals(2, cars.size());
    }
}
