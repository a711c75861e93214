package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A persistence or database the application drops without {@code close()} is released once the garbage collector
 * finds it unreachable: its DuckDB instance (and the instance's threads), its claim on its file and its spill
 * directory. Each test drops what it built inside a method of its own, then asks for collections (the library
 * never does) until the release is seen, for at most {@link #WAIT_MILLIS}.
 */
class UnclosedTest {

    private static final long WAIT_MILLIS = 20_000;

    @TempDir
    Path dir;

    /** Asks for garbage collections until {@code released} holds; {@code false} when the wait ran out. */
    static boolean collectUntil(BooleanSupplier released) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            System.gc();
            Thread.sleep(50);
            if (released.getAsBoolean()) {
                return true;
            }
        }
        return released.getAsBoolean();
    }

    /** The threads of this process, native ones (DuckDB's workers) included. */
    static int processThreads() {
        String[] tasks = new File("/proc/self/task").list();
        return tasks == null ? -1 : tasks.length;
    }

    private static boolean opens(Path file) {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            return new ConcurrentIndexedCollection<>(p).size() == 1;
        } catch (io.quackjvm.api.DatabaseLockedException e) {
            return false;
        }
    }

    /** Whether {@code file} opens as a database whose collection {@code car} holds {@code size} cars. */
    private static boolean databaseOpens(Path file, int size) {
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).build()) {
            return db.collection(Car.CAR_ID).name("car").build().size() == size;
        } catch (io.quackjvm.api.DatabaseLockedException e) {
            return false;
        }
    }

    private static void dropPersistenceOn(Path file) {
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        cars.add(Car.of(1));
        // an iterator left open as well: released with the rest
        Iterator<Car> it = cars.iterator();
        assertTrue(it.hasNext());
    }

    private static void dropDatabaseOn(Path file) {
        DuckDBDatabase db = DuckDBDatabase.builder().file(file).build();
        IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
        cars.add(Car.of(1));
    }

    @Test
    void aFilePersistenceDroppedWithoutCloseGivesUpTheFile() throws Exception {
        Path file = dir.resolve("dropped.duckdb");
        dropPersistenceOn(file);
        assertTrue(collectUntil(() -> opens(file)), "the file can be opened again in this JVM once the dropped "
                + "persistence was collected");
        assertFalse(Files.exists(Path.of(file + ".wal")), "the release closed the file cleanly");
    }

    private static void dropDatabaseWithOpenStreamOn(Path file) {
        DuckDBDatabase db = DuckDBDatabase.builder().file(file).build();
        IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
        cars.addAll(Car.firstN(10));
        // a query's stream and a store iterator left open, never closed
        Iterator<Integer> rows = db.query("SELECT carId FROM car ORDER BY carId").stream(Integer.class).iterator();
        assertTrue(rows.hasNext());
        assertTrue(cars.iterator().hasNext());
    }

    /**
     * Drops a database on {@code fileName} in the test's folder with {@code drop}, then asserts with {@code message}
     * that the file opens again, holding {@code size} cars, once the dropped database was collected.
     */
    private void assertDroppedDatabaseGivesUpTheFile(String fileName, Consumer<Path> drop, int size, String message)
            throws InterruptedException {
        Path file = dir.resolve(fileName);
        drop.accept(file);
        assertTrue(collectUntil(() -> databaseOpens(file, size)), message);
    }

    @Test
    void aDatabaseDroppedWithOpenResultsGivesUpTheFile() throws Exception {
        assertDroppedDatabaseGivesUpTheFile("dropped-open.duckdb", UnclosedTest::dropDatabaseWithOpenStreamOn, 10,
                "the file can be opened again once the dropped database and its open results were collected");
    }

    @Test
    void aFileDatabaseDroppedWithoutCloseGivesUpTheFile() throws Exception {
        assertDroppedDatabaseGivesUpTheFile("dropped-db.duckdb", UnclosedTest::dropDatabaseOn, 1,
                "the file can be opened again once the dropped database was collected");
    }

    private static void dropInMemoryWithThreads(int threads) {
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("64MB")
                .property("threads", Integer.toString(threads)).build();
        new ConcurrentIndexedCollection<>(p).add(Car.of(1));
    }

    @Test
    void anInMemoryDatabaseOfItsOwnDroppedWithoutCloseEndsItsThreads() throws Exception {
        assumeTrue(processThreads() > 0, "needs /proc/self/task");
        int before = processThreads();
        dropInMemoryWithThreads(6);
        int during = processThreads();
        assertTrue(during >= before + 4, "DuckDB started its workers: " + before + " -> " + during);
        assertTrue(collectUntil(() -> processThreads() <= before + 1), "the dropped database's threads end: "
                + before + " before, " + during + " while open, " + processThreads() + " now");
    }

    /** The in-memory catalogs attached to the shared engine now, counted through {@code root}. */
    private static long sharedCatalogs(java.sql.Connection root) {
        try (java.sql.Statement s = root.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM duckdb_databases() "
                     + "WHERE database_name LIKE 'quackjvm_mem_%'")) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void dropSharedInMemory(int n) {
        for (int i = 0; i < n; i++) {
            DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.add(Car.of(i));
            // an iterator left open as well: released with the rest
            assertTrue(cars.iterator().hasNext());
        }
    }

    @Test
    void inMemoryCollectionsDroppedWithoutCloseLeaveTheSharedEngine() throws Exception {
        // an observer in the shared engine: its pool is given a connection to the engine
        TestPool pool = new TestPool(sql -> sql, () -> { });
        try (DuckDBPersistence<Car, Integer> observer = DuckDBPersistence.builder(Car.CAR_ID).connectionPool(pool)
                .build()) {
            new ConcurrentIndexedCollection<>(observer).add(Car.of(1));
            long before = sharedCatalogs(pool.root);
            assertTrue(before >= 1, "the observer is a catalog of the shared engine");
            dropSharedInMemory(20);
            long during = sharedCatalogs(pool.root);
            assertTrue(during >= before + 20, "20 more catalogs while referenced: " + before + " -> " + during);
            assertTrue(collectUntil(() -> sharedCatalogs(pool.root) <= before), "the dropped collections' catalogs "
                    + "are detached: " + before + " before, " + during + " while open, " + sharedCatalogs(pool.root)
                    + " now");
            assertEquals(1, new ConcurrentIndexedCollection<>(observer).size(), "the observer is untouched");
        }
    }

    /** The directories under java.io.tmpdir whose names start with {@code quackjvm-spill}, and their children. */
    static Set<Path> spillDirectories() throws IOException {
        Set<Path> found = new HashSet<>();
        try (Stream<Path> top = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            for (Path p : (Iterable<Path>) top::iterator) {
                if (p.getFileName().toString().startsWith("quackjvm-spill") && Files.isDirectory(p)) {
                    found.add(p);
                    try (Stream<Path> children = Files.list(p)) {
                        children.filter(Files::isDirectory).forEach(found::add);
                    } catch (IOException e) {
                        // removed meanwhile
                    }
                }
            }
        }
        return found;
    }

    /** Fills an in-memory database beyond its limit, so that DuckDB spills; returns the new spill directories. */
    private static Set<Path> dropSpilled(Set<Path> before) throws IOException {
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("16MB").build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        cars.addAll(Car.firstN(200_000));
        assertEquals(200_000, cars.size());
        Set<Path> created = spillDirectories();
        created.removeAll(before);
        return created;
    }

    @Test
    void theSpillDirectoryOfADroppedDatabaseIsRemoved() throws Exception {
        Set<Path> created = dropSpilled(spillDirectories());
        assertFalse(created.isEmpty(), "the database spilled into a directory of its own");
        Path spill = created.stream().filter(p -> {
            try (Stream<Path> files = Files.list(p)) {
                return files.anyMatch(Files::isRegularFile);
            } catch (IOException e) {
                return false;
            }
        }).findFirst().orElseThrow(() -> new AssertionError("no spill files in " + created));
        assertTrue(collectUntil(() -> !Files.exists(spill)), spill + " is removed once its database was collected");
    }
}
