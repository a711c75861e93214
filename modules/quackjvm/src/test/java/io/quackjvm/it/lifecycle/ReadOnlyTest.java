package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import io.quackjvm.it.Car;
import io.quackjvm.it.OtherProcess;
import io.quackjvm.it.Person;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A file opened with {@code access_mode=READ_ONLY} reads, refuses every write clearly, and can be shared. */
class ReadOnlyTest {

    @TempDir
    Path dir;
    Path file;

    @BeforeEach
    void writeTheFile() {
        file = dir.resolve("cars.duckdb");
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(Car.firstN(1_000));
        }
    }

    private DuckDBPersistence<Car, Integer> readOnly() {
        return DuckDBPersistence.builder(Car.CAR_ID).file(file).property("access_mode", "READ_ONLY").build();
    }

    @Test
    void readsWorkAndEveryWriteIsRefusedNamingTheSetting() {
        try (DuckDBPersistence<Car, Integer> p = readOnly()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            assertEquals(1_000, cars.size());
            String maker = Car.of(5).manufacturer();
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, maker))) {
                assertTrue(rs.size() > 0);
                rs.forEach(c -> assertEquals(maker, c.manufacturer()));
            }
            for (Runnable write : List.<Runnable>of(() -> cars.add(Car.of(5_000)), () -> cars.remove(Car.of(1)),
                    cars::clear, p::compact, p::optimize,
                    () -> cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE)))) {
                QuackException e = assertThrows(QuackException.class, write::run);
                assertTrue(e.getMessage().contains("read-only") && e.getMessage().contains("access_mode"),
                        e.getMessage());
            }
            assertEquals(1_000, cars.size());
        }
    }

    @Test
    void aCollectionTheFileDoesNotHoldIsRefused() {
        QuackException e = assertThrows(QuackException.class, () -> DuckDBPersistence.builder(Person.NAME)
                .file(file).property("access_mode", "read_only").build());
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    }

    @Test
    void readOnlyNeedsAnExistingFile() {
        assertThrows(IllegalArgumentException.class, () -> DuckDBPersistence.builder(Car.CAR_ID)
                .property("access_mode", "READ_ONLY").build());
        QuackException e = assertThrows(QuackException.class, () -> DuckDBPersistence.builder(Car.CAR_ID)
                .file(dir.resolve("absent.duckdb")).property("access_mode", "READ_ONLY").build());
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }

    @Test
    void anotherProcessReadsTheFileWhileThisOneHasItOpenReadOnly() throws Exception {
        try (DuckDBPersistence<Car, Integer> p = readOnly()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            assertEquals(1_000, cars.size());
            assertEquals(1_000, OtherProcess.countRows(dir, file, "car", true));
            assertEquals(1_000, cars.size());
        }
    }
}
