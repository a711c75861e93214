package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.PersistenceClosedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input fails with a clear exception and changes nothing stored. */
class BadInputTest {

    /** An object whose payload Kryo cannot reach on Java 17 (java.io is not open to it). */
    static final class Gadget {
        final int id;
        final Object payload;

        Gadget(int id, Object payload) {
            this.id = id;
            this.payload = payload;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Gadget g && g.id == id;
        }

        @Override
        public int hashCode() {
            return id;
        }
    }

    static final com.googlecode.cqengine.attribute.SimpleAttribute<Gadget, Integer> GADGET_ID =
            new com.googlecode.cqengine.attribute.SimpleAttribute<>(Gadget.class, Integer.class, "id") {
                @Override
                public Integer getValue(Gadget g, com.googlecode.cqengine.query.option.QueryOptions q) {
                    return g.id;
                }
            };

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private <T extends AutoCloseable> T track(T t) {
        toClose.add(t);
        return t;
    }

    @Test
    void aNullPrimaryKeyIsRefusedAndTheWholeBatchIsDiscarded() {
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(track(DuckDBPersistence.onPrimaryKey(Car.CAR_ID)));
        cars.add(Car.of(1));
        Car keyless = new Car(null, "Ford", "T", Car.Colour.BLACK, 2, 100, List.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> cars.addAll(List.of(Car.of(2), keyless, Car.of(3))));
        assertTrue(e.getMessage().contains("Null primary key") && e.getMessage().contains("carId"), e.getMessage());
        assertEquals(Set.of(Car.of(1)), new HashSet<>(cars));
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 200})
    void anObjectThatCannotBeSerialisedRollsBackTheWholeWrite(int batchSize) {
        IndexedCollection<Gadget> gadgets = new ConcurrentIndexedCollection<>(
                track(DuckDBPersistence.onPrimaryKey(GADGET_ID)));
        gadgets.add(new Gadget(-1, "fine"));
        List<Gadget> batch = new ArrayList<>();
        for (int i = 0; i < batchSize - 1; i++) {
            batch.add(new Gadget(i, "fine " + i));
        }
        batch.add(new Gadget(batchSize, new java.io.ByteArrayInputStream(new byte[4])));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> gadgets.addAll(batch));
        assertTrue(e.getMessage().contains("Cannot serialise") && e.getMessage().contains(Gadget.class.getName()),
                e.getMessage());
        assertEquals(1, gadgets.size(), "nothing of the failed batch may remain");
        assertEquals(Set.of(new Gadget(-1, "fine")), new HashSet<>(gadgets));
    }

    @Test
    void everyCallAfterCloseThrowsPersistenceClosedException() {
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        cars.add(Car.of(1));
        p.close();
        p.close(); // idempotent
        assertThrows(PersistenceClosedException.class, () -> cars.add(Car.of(2)));
        assertThrows(PersistenceClosedException.class, cars::size);
        assertThrows(PersistenceClosedException.class, () -> cars.retrieve(equal(Car.CAR_ID, 1)));
        assertThrows(PersistenceClosedException.class, p::compact);
        assertThrows(PersistenceClosedException.class, p::getBytesUsed);
        PersistenceClosedException e = assertThrows(PersistenceClosedException.class, () -> cars.contains(Car.of(1)));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"12 parsecs", "", "-5MB", "MB", "0GB"})
    void anUnparseableMemoryLimitListsTheAcceptedForms(String limit) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DuckDBPersistence.builder(Car.CAR_ID).memoryLimit(limit));
        assertTrue(e.getMessage().contains("memoryLimit(\"" + limit + "\")"), e.getMessage());
        assertTrue(e.getMessage().contains("512MB") || e.getMessage().contains("greater than zero"), e.getMessage());
    }

    @Test
    void acceptedMemoryLimitsReachDuckDb() throws Exception {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("256MB").build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.add(Car.of(1));
            assertEquals(1, cars.size());
        }
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("1.5GiB").build()) {
            assertEquals(0, new ConcurrentIndexedCollection<>(p).size());
        }
    }

    @Test
    void aNegativePoolSizeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DuckDBPersistence.builder(Car.CAR_ID).maxPooledConnections(-1));
        assertTrue(e.getMessage().contains("maxPooledConnections(-1)"), e.getMessage());
    }

    @Test
    void settingAnOptionTwiceIsRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("1GB").memoryLimit("2GB"));
        assertTrue(e.getMessage().contains("memoryLimit"), e.getMessage());
        assertThrows(IllegalStateException.class,
                () -> DuckDBPersistence.builder(Car.CAR_ID).inMemory().file(java.nio.file.Path.of("x.duckdb")));
    }

    @Test
    void anUnknownDuckDbSettingFailsAtBuildNamingIt() {
        io.quackjvm.api.QuackException e = assertThrows(io.quackjvm.api.QuackException.class,
                () -> DuckDBPersistence.builder(Car.CAR_ID).property("no_such_setting", "1").build());
        assertTrue(e.getMessage().contains("no_such_setting"), e.getMessage());
    }

    @Test
    void anUnsupportedPrimaryKeyTypeIsRefusedAtBuild() {
        // more key types in io.quackjvm.it.keys.KeyTypesTest
        com.googlecode.cqengine.attribute.SimpleAttribute<Car, java.time.Duration> age =
                new com.googlecode.cqengine.attribute.SimpleAttribute<>(Car.class, java.time.Duration.class, "age") {
                    @Override
                    public java.time.Duration getValue(Car car, com.googlecode.cqengine.query.option.QueryOptions q) {
                        return java.time.Duration.ofDays(Car.CAR_ID.getValue(car, q));
                    }
                };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DuckDBPersistence.builder(age).build());
        assertTrue(e.getMessage().contains("java.time.Duration"), e.getMessage());
    }
}
