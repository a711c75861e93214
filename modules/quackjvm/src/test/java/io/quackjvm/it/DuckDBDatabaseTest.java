package io.quackjvm.it;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.ObjectLockingIndexedCollection;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several collections in one {@link DuckDBDatabase}: names, lifecycle, reopening, per-collection write locks. */
class DuckDBDatabaseTest {

    @TempDir
    Path dir;

    @Test
    void twoCollectionsLiveInOneDatabaseAndAreDescribed() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().memoryLimit("256MB").build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            IndexedCollection<Person> people = db.collection(Person.NAME).name("person").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(Car.firstN(50));
            people.add(new Person("ada", 36, List.of("maths")));
            assertEquals(50, cars.size());
            assertEquals(1, people.size());
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, Car.of(3).manufacturer()))) {
                assertTrue(rs.size() > 0);
            }
            assertEquals(List.of("car", "person"), db.collectionNames());
            String described = db.describe();
            assertTrue(described.contains("collection car (" + Car.class.getName()), described);
            assertTrue(described.contains("collection person (" + Person.class.getName()), described);
            assertTrue(described.contains("50 rows"), described);
            assertTrue(described.contains("index on manufacturer (single-valued, strategy scan"), described);
            assertTrue(described.contains("_key"), described);
            db.optimize();
            db.analyze();
            db.compact();
            assertTrue(db.getBytesUsed() > 0);
            assertEquals(50, cars.size());
        }
    }

    @Test
    void aNameIsUsedOncePerDatabaseWhateverTheType() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            db.collection(Car.CAR_ID).name("things").build();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.collection(Person.NAME).name("Things").build());
            assertTrue(e.getMessage().contains("'things'") && e.getMessage().contains(Car.class.getName()),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> db.collection(Car.CAR_ID).name("things").build());
            assertEquals(List.of("things"), db.collectionNames());
        }
    }

    @Test
    void closingTheDatabaseClosesEveryCollection() {
        DuckDBDatabase db = DuckDBDatabase.builder().build();
        IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
        DuckDBPersistence<Person, String> people = db.collection(Person.NAME).buildPersistence();
        IndexedCollection<Person> lockingPeople = new ObjectLockingIndexedCollection<>(people);
        cars.add(Car.of(1));
        lockingPeople.add(new Person("bob", 1, List.of()));
        db.close();
        db.close();
        assertThrows(PersistenceClosedException.class, cars::size);
        assertThrows(PersistenceClosedException.class, () -> lockingPeople.add(new Person("eve", 2, List.of())));
        assertThrows(PersistenceClosedException.class, db::describe);
        assertThrows(PersistenceClosedException.class, db::optimize);
        assertThrows(PersistenceClosedException.class, () -> db.collection(Car.CAR_ID));
    }

    @Test
    void closingOneCollectionLeavesTheOthersAndFreesItsName() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            DuckDBPersistence<Car, Integer> carStore = db.collection(Car.CAR_ID).name("car").buildPersistence();
            IndexedCollection<Car> cars = new ObjectLockingIndexedCollection<>(carStore);
            IndexedCollection<Person> people = db.collection(Person.NAME).build();
            cars.add(Car.of(7));
            carStore.close();
            PersistenceClosedException e = assertThrows(PersistenceClosedException.class, cars::size);
            assertTrue(e.getMessage().contains("'car'"), e.getMessage());
            people.add(new Person("ann", 3, List.of()));
            assertEquals(1, people.size());
            IndexedCollection<Car> again = db.collection(Car.CAR_ID).name("car").build();
            assertTrue(again.contains(Car.of(7)), "the data of a closed collection stays in the database");
        }
    }

    @Test
    void reopeningAFileFindsEveryCollectionAndRefusesOneThatDiffers() {
        Path file = dir.resolve("shop.duckdb");
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(Car.firstN(100));
            db.collection(Person.NAME).name("person").columnarLayout(ColumnarLayout.ofRecord(Person.class)).build()
                    .add(new Person("cy", 4, List.of("x")));
        }
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).build()) {
            QuackException wrongLayout = assertThrows(QuackException.class,
                    () -> db.collection(Person.NAME).name("person").build());
            assertTrue(wrongLayout.getMessage().contains("'columnar' layout"), wrongLayout.getMessage());
            QuackException wrongType = assertThrows(QuackException.class,
                    () -> db.collection(Car.CAR_ID).name("person").build());
            assertTrue(wrongType.getMessage().contains(Person.class.getName()), wrongType.getMessage());
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            IndexedCollection<Person> people = db.collection(Person.NAME).name("person")
                    .columnarLayout(ColumnarLayout.ofRecord(Person.class)).build();
            assertEquals(100, cars.size());
            assertTrue(cars.contains(Car.of(42)));
            assertTrue(people.contains(new Person("cy", 4, List.of("x"))));
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, Car.of(5).manufacturer()))) {
                assertEquals(Car.firstN(100).stream().filter(c -> c.manufacturer().equals(Car.of(5).manufacturer()))
                        .count(), rs.size());
            }
        }
    }

    @Test
    void writersOfTwoCollectionsNeverWaitForEachOther() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            IndexedCollection<Person> people = db.collection(Person.NAME).name("person").build();
            PausingBatch batch = new PausingBatch(List.of(Car.of(1), Car.of(2)));
            Future<?> carWriter = pool.submit(() -> cars.update(List.of(), batch, new QueryOptions()));
            assertTrue(batch.firstAdded.await(30, TimeUnit.SECONDS));
            // The car write holds its collection's lock; a write to people must not wait for it.
            Future<Boolean> personWriter = pool.submit(() -> people.add(new Person("dan", 5, List.of())));
            assertTrue(personWriter.get(30, TimeUnit.SECONDS));
            assertFalse(carWriter.isDone());
            batch.release.countDown();
            carWriter.get(30, TimeUnit.SECONDS);
            assertEquals(2, cars.size());
            assertEquals(1, people.size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void collectionsOfOtherDatabasesAreNamedInTheRefusal() {
        try (DuckDBDatabase one = DuckDBDatabase.builder().build();
             DuckDBDatabase two = DuckDBDatabase.builder().build()) {
            one.collection(Car.CAR_ID).name("car").build();
            two.collection(Car.CAR_ID).name("car").build();
            assertTrue(one.toString().contains("in-memory"));
            assertThrows(IllegalStateException.class, () -> DuckDBDatabase.builder().inMemory().file(dir));
        }
    }
}
