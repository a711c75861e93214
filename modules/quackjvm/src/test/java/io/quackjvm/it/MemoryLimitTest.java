package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An in-memory database under a memoryLimit smaller than its data: DuckDB evicts the table data to temporary files
 * (in a directory of the database's own under java.io.tmpdir, deleted on close), and a limit too small for what
 * cannot be evicted fails with a message naming memoryLimit.
 */
class MemoryLimitTest {

    private static final int N = 200_000;

    @Test
    void anInMemoryDatabaseLargerThanItsLimitSpillsToItsOwnDirectoryAndRemovesItOnClose() throws Exception {
        List<Car> cars = cars();
        Set<Path> before = spillDirectories();
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("16MB").build();
        Path spill;
        try {
            IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
            coll.addAll(cars);
            // The serialised objects alone are larger than the limit: DuckDB has evicted some to a directory of
            // this database's own, inside the process's spill directory.
            Set<Path> created = spillDirectories();
            created.removeAll(before);
            created.removeIf(d -> d.getParent().equals(Path.of(System.getProperty("java.io.tmpdir"))));
            assertEquals(1, created.size(), "one spill directory for the database: " + created);
            spill = created.iterator().next();
            try (Stream<Path> files = Files.list(spill)) {
                assertTrue(files.findAny().isPresent(), "DuckDB wrote temporary files to " + spill);
            }
            assertFalse(Files.exists(Path.of(".tmp")), "nothing spilled into the working directory");
            assertEquals(N, coll.size());
            try (ResultSet<Car> rs = coll.retrieve(equal(Car.CAR_ID, 123_456))) {
                assertEquals(Car.of(123_456), rs.uniqueResult());
            }
            try (ResultSet<Car> rs = coll.retrieve(between(Car.CAR_ID, 1_000, 5_999))) {
                int n = 0;
                for (Car c : rs) {
                    assertEquals(Car.of(c.carId()), c);
                    n++;
                }
                assertEquals(5_000, n);
            }
            int all = 0;
            for (Car c : coll) {
                all++;
            }
            assertEquals(N, all);
        } finally {
            p.close();
        }
        assertFalse(Files.exists(spill), "the spill directory is deleted on close");
    }

    @Test
    void aLimitTooSmallForTheUnspillableMemoryFailsNamingMemoryLimitAndRollsBack() {
        List<Car> cars = cars();
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("2MB").build()) {
            IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
            QuackException e = assertThrows(QuackException.class, () -> coll.addAll(cars));
            assertTrue(e.getMessage().contains("memoryLimit"), e.getMessage());
            assertTrue(e.getMessage().contains("DuckDB said:") && e.getMessage().contains("allocate"),
                    "DuckDB's own words are kept: " + e.getMessage());
            assertEquals(0, coll.size(), "the failed load rolled back whole");
        }
    }

    private static List<Car> cars() {
        List<Car> cars = new ArrayList<>(N);
        for (int i = 0; i < N; i++) {
            cars.add(Car.of(i));
        }
        return cars;
    }

    /** The process spill directories under java.io.tmpdir, and the directories inside them. */
    private static Set<Path> spillDirectories() throws IOException {
        Set<Path> found = new java.util.HashSet<>();
        try (Stream<Path> list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            for (Path top : list.filter(f -> f.getFileName().toString().startsWith("quackjvm-spill-"))
                    .collect(Collectors.toList())) {
                found.add(top);
                try (Stream<Path> inner = Files.list(top)) {
                    inner.filter(Files::isDirectory).forEach(found::add);
                } catch (IOException e) {
                    // removed meanwhile
                }
            }
        }
        return found;
    }
}
