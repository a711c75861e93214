package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import com.googlecode.cqengine.query.option.QueryOptions;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StorageManagementTest {

    @TempDir
    Path dir;

    @Test
    void compactReclaimsSpaceAndFailsNamingTheCauseWhileAnotherWriteIsOpen() throws Exception {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(dir.resolve("c.duckdb")).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            List<Car> batch = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                batch.add(Car.of(i));
            }
            cars.addAll(batch);
            p.compact();
            long full = p.getBytesUsed();
            assertTrue(full > 0);
            // An open reader does not make compact() fail (the rewrite commits; a checkpoint DuckDB refuses while the
            // reader is open is left to the next one)...
            try (ResultSet<Car> open = cars.retrieve(all(Car.class))) {
                Iterator<Car> it = open.iterator();
                it.next();
                cars.add(Car.of(100_001));
                assertDoesNotThrow(p::compact);
            }
            // ...but another open write transaction that deletes or updates rows does, and compact() says so.
            PausingBatch pausing = new PausingBatch(List.of(Car.of(5).withPrice(1), Car.of(100_003)));
            Thread writer = new Thread(() -> cars.update(List.of(), pausing, new QueryOptions()));
            writer.start();
            assertTrue(pausing.firstAdded.await(30, TimeUnit.SECONDS));
            try {
                QuackException e = assertThrows(QuackException.class, p::compact);
                assertTrue(e.getMessage().contains("write transaction is open"), e.getMessage());
                assertDoesNotThrow(p::getBytesUsed, "getBytesUsed carries on without the checkpoint");
            } finally {
                pausing.release.countDown();
                writer.join(30_000);
            }
            cars.clear();
            p.compact();
            p.analyze();
            p.expand(1_000_000);
            assertEquals(0, cars.size());
        }
    }
}
