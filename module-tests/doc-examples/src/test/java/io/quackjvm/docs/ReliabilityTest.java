package io.quackjvm.docs;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The examples of docs/reliability.md ("Backup and restore"). */
class ReliabilityTest extends Shop {

    @Test
    void snapshotServeAndRestore() throws Exception {
        Files.createDirectories(Path.of("backups"));
        Files.deleteIfExists(Path.of("backups", "shop-monday.duckdb"));
        // tag::snapshot[]
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(Path.of("shop.duckdb")).build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(loadCars());
            db.snapshot(Path.of("backups", "shop-monday.duckdb"));   // while other threads keep writing
            cars.removeIf(car -> car.price() > 40_000);              // not in the snapshot
        }
        // end::snapshot[]
        // tag::replica[]
        try (DuckDBDatabase replica = DuckDBDatabase.builder()
                .file(Path.of("backups", "shop-monday.duckdb")).readOnly().build()) {
            IndexedCollection<Car> cars = replica.collection(Car.CAR_ID).name("car").build();
            System.out.println(cars.size() + " cars in Monday's snapshot");
            // end::replica[]
            assertEquals(new HashSet<>(loadCars()), new HashSet<>(cars));
            // tag::replica[]
        }
        // end::replica[]
        // tag::restore[]
        // with the database closed: put the snapshot in place of the file (and its log, if one is left)
        Files.deleteIfExists(Path.of("shop.duckdb.wal"));
        Files.copy(Path.of("backups", "shop-monday.duckdb"), Path.of("shop.duckdb"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // end::restore[]
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(Path.of("shop.duckdb")).build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            assertEquals(new HashSet<>(loadCars()), new HashSet<>(cars));
        }
    }
}
