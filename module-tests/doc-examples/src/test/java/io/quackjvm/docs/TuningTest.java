package io.quackjvm.docs;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.PersistenceClosedException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The examples of docs/tuning.md. */
class TuningTest extends Shop {

    @Test
    void everySettingAndStorageManagement() {
        // tag::settings[]
        DuckDBPersistence<Car, Integer> persistence = DuckDBPersistence.builder(Car.CAR_ID)
                .file(Path.of("cars.duckdb"))                           // default: in memory
                .columnarLayout(ColumnarLayout.ofRecord(Car.class))     // default: the blob layout
                .memoryLimit("256MB")                                   // DuckDB's buffer pool; default 80% of RAM
                .appenderThreshold(16)                                  // batches above this use DuckDB's Appender
                .stagingChunkRows(131_072)                              // Appender rows between flushes in a bulk load
                .maxPooledConnections(32)                               // idle connections kept for reuse
                .serializeWrites(true)                                  // writers of this collection take turns
                .objectCacheSize(50_000)                                // objects kept on the heap by key; default 0 (off)
                .property("threads", "2")                               // any DuckDB setting
                .build();
        // end::settings[]
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(persistence);
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addAll(loadCars());
        cars.removeIf(c -> c.carId() % 2 == 0);
        long bytes = 1L << 30;
        // tag::storage-management[]
        persistence.getBytesUsed();   // file + write-ahead log (checkpoints first, as housekeeping); in memory: DuckDB's memory
        persistence.optimize();       // sort index tables for DuckDB's zone maps
        persistence.compact();        // rewrite the tables + CHECKPOINT: reclaims the space of deleted rows (see below)
        persistence.analyze();        // refresh DuckDB's planner statistics
        persistence.expand(bytes);    // does nothing: DuckDB grows its own file (kept for CQEngine source compatibility)
        persistence.close();
        // end::storage-management[]
        assertTrue(Files.isRegularFile(Path.of("cars.duckdb")));
        assertThrows(PersistenceClosedException.class, cars::size);
        try (DuckDBPersistence<Car, Integer> reopened = DuckDBPersistence.builder(Car.CAR_ID)
                .file(Path.of("cars.duckdb")).columnarLayout(ColumnarLayout.ofRecord(Car.class)).build()) {
            assertEquals(new HashSet<>(loadCars().stream().filter(c -> c.carId() % 2 == 1).toList()),
                    new HashSet<>(new ConcurrentIndexedCollection<>(reopened)));
        }
    }
}
