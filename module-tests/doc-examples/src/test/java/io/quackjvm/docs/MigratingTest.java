package io.quackjvm.docs;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.hash.HashIndex;
import com.googlecode.cqengine.persistence.disk.DiskPersistence;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DiskPersistenceMigration;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The example of docs/migrating.md. */
class MigratingTest extends Shop {

    @Test
    void copiesADiskPersistenceFile() throws Exception {
        for (String leftOver : new String[] {"cars.sqlite", "cars.sqlite-wal", "cars.sqlite-shm"}) {
            Files.deleteIfExists(Path.of(leftOver));
        }
        // What the application stored with CQEngine before.
        DiskPersistence<Car, Integer> disk = DiskPersistence.onPrimaryKeyInFile(Car.CAR_ID, new File("cars.sqlite"));
        try {
            IndexedCollection<Car> old = new ConcurrentIndexedCollection<>(disk);
            old.addIndex(HashIndex.onAttribute(Car.MANUFACTURER));
            old.addAll(loadCars());
        } finally {
            disk.close();
        }
        // tag::copy[]
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(Path.of("cars.duckdb")).build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));   // written with the objects
            long copied = DiskPersistenceMigration.copy(new File("cars.sqlite"), Car.CAR_ID, cars,
                    progress -> System.out.println(progress));           // the listener may be null
            System.out.println(copied + " cars copied");
        }
        // end::copy[]
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(Path.of("cars.duckdb")).build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            assertEquals(new HashSet<>(loadCars()), new HashSet<>(cars));
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, "Ford"))) {
                assertEquals(loadCars().stream().filter(c -> c.manufacturer().equals("Ford")).count(), rs.size());
            }
        }
    }
}
