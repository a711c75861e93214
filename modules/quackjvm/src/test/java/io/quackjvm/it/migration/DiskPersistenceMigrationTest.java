package io.quackjvm.it.migration;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.hash.HashIndex;
import com.googlecode.cqengine.index.navigable.NavigableIndex;
import com.googlecode.cqengine.persistence.disk.DiskPersistence;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DiskPersistenceMigration;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.Progress;
import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Files written by real CQEngine 3.6.0 DiskPersistence, copied into quackjvm collections. */
class DiskPersistenceMigrationTest {

    private static final int COUNT = 3_000;
    private static final String[] MAKERS = {"Ford", "Honda", "Toyota", "Volvo", "Fiat"};

    @TempDir
    static Path dir;
    static File source;
    static Map<Integer, Vehicle> written;

    @BeforeAll
    static void writeSource() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("DiskPersistenceMigrationTest seed " + seed + " (replay with -Dseed=" + seed + ")");
        Random random = new Random(seed);
        source = dir.resolve("cars.sqlite").toFile();
        written = new HashMap<>();
        List<Vehicle> vehicles = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            Vehicle v = new Vehicle(random.nextInt(1_000_000_000), MAKERS[random.nextInt(MAKERS.length)],
                    "m" + random.nextInt(50), Math.round(random.nextDouble() * 100_000) / 100.0,
                    1990 + random.nextInt(35));
            written.put(v.id(), v);
        }
        vehicles.addAll(written.values());
        DiskPersistence<Vehicle, Integer> persistence = DiskPersistence.onPrimaryKeyInFile(Vehicle.ID, source);
        try {
            IndexedCollection<Vehicle> cars = new ConcurrentIndexedCollection<>(persistence);
            cars.addIndex(HashIndex.onAttribute(Vehicle.MAKER));
            cars.addIndex(NavigableIndex.onAttribute(Vehicle.PRICE));
            cars.addAll(vehicles);
            assertEquals(written.size(), cars.size());
        } finally {
            persistence.close();
        }
    }

    @Test
    void copiesIntoABlobLayoutPersistence() throws Exception {
        byte[] before = Files.readAllBytes(source.toPath());
        List<Progress> progress = new CopyOnWriteArrayList<>();
        try (DuckDBPersistence<Vehicle, Integer> persistence =
                     DuckDBPersistence.onPrimaryKeyInFile(Vehicle.ID, dir.resolve("blob.duckdb").toFile())) {
            IndexedCollection<Vehicle> target = new ConcurrentIndexedCollection<>(persistence);
            long copied = DiskPersistenceMigration.copy(source, Vehicle.ID, target, progress::add);
            assertEquals(written.size(), copied);
            assertContents(target);
            assertSameAnswersAsSource(target);
        }
        assertFalse(progress.isEmpty(), "the listener was called");
        Progress last = progress.get(progress.size() - 1);
        assertTrue(last.finished());
        assertEquals("migration", last.operation());
        assertEquals(written.size(), last.rowsDone());
        assertEquals(written.size(), last.rowsExpected());
        assertArrayEquals(before, Files.readAllBytes(source.toPath()), "the source file is unchanged");
    }

    @Test
    void copiesIntoAColumnarDatabaseCollectionWithAnIndex() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("columnar.duckdb")).build()) {
            IndexedCollection<Vehicle> target = db.collection(Vehicle.ID).name("vehicle")
                    .columnarLayout(ColumnarLayout.ofRecord(Vehicle.class)).build();
            target.addIndex(DuckDBIndex.onAttribute(Vehicle.MAKER));
            assertEquals(written.size(), DiskPersistenceMigration.copy(source, Vehicle.ID, target, null));
            assertContents(target);
            assertSameAnswersAsSource(target);
            assertEquals(written.size(), db.query("SELECT count(*) FROM vehicle").scalar(Long.class).longValue());
        }
        assertSourceStillHoldsEverything();
    }

    @Test
    void refusesAMissingFileAndLeavesTheTargetAlone() {
        try (DuckDBPersistence<Vehicle, Integer> persistence = DuckDBPersistence.onPrimaryKey(Vehicle.ID)) {
            IndexedCollection<Vehicle> target = new ConcurrentIndexedCollection<>(persistence);
            File missing = dir.resolve("no-such.sqlite").toFile();
            QuackException e = assertThrows(QuackException.class,
                    () -> DiskPersistenceMigration.copy(missing, Vehicle.ID, target, null));
            assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
            assertFalse(missing.exists(), "no file was created");
            assertEquals(0, target.size());
        }
    }

    @Test
    void refusesAFileThatIsNotADiskPersistenceFile() throws Exception {
        Path text = dir.resolve("notes.sqlite");
        Files.writeString(text, "these are not the cars you are looking for", StandardCharsets.UTF_8);
        byte[] before = Files.readAllBytes(text);
        try (DuckDBPersistence<Vehicle, Integer> persistence = DuckDBPersistence.onPrimaryKey(Vehicle.ID)) {
            IndexedCollection<Vehicle> target = new ConcurrentIndexedCollection<>(persistence);
            QuackException e = assertThrows(QuackException.class,
                    () -> DiskPersistenceMigration.copy(text.toFile(), Vehicle.ID, target, null));
            assertTrue(e.getMessage().contains("not a CQEngine DiskPersistence file"), e.getMessage());
            assertEquals(0, target.size());
        }
        assertArrayEquals(before, Files.readAllBytes(text));
    }

    @Test
    void refusesTheWrongPrimaryKeyWithoutTouchingTheFile() throws Exception {
        byte[] before = Files.readAllBytes(source.toPath());
        try (DuckDBPersistence<Vehicle, Integer> persistence = DuckDBPersistence.onPrimaryKey(Vehicle.ID)) {
            IndexedCollection<Vehicle> target = new ConcurrentIndexedCollection<>(persistence);
            QuackException e = assertThrows(QuackException.class,
                    () -> DiskPersistenceMigration.copy(source, Vehicle.YEAR, target, null));
            assertTrue(e.getMessage().contains("cqtbl_id"), e.getMessage());
            assertTrue(e.getMessage().contains("'year'"), e.getMessage());
            assertEquals(0, target.size());
        }
        assertArrayEquals(before, Files.readAllBytes(source.toPath()));
    }

    @Test
    void refusesATargetThatIsNotStoredByQuackjvm() {
        IndexedCollection<Vehicle> onHeap = new ConcurrentIndexedCollection<>();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DiskPersistenceMigration.copy(source, Vehicle.ID, onHeap, null));
        assertTrue(e.getMessage().contains("DuckDBPersistence"), e.getMessage());
        assertEquals(0, onHeap.size());
    }

    @Test
    void aFailureHalfWayLeavesTheTargetUnchanged() {
        Vehicle kept = new Vehicle(-1, "Kept", "k", 1.0, 2000);
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            // A target whose index refuses one maker: the load fails part way through.
            IndexedCollection<Vehicle> target = db.collection(Vehicle.ID).name("vehicle")
                    .columnarLayout(ColumnarLayout.ofRecord(Vehicle.class)).stagingChunkRows(500).build();
            target.add(kept);
            target.addIndex(DuckDBIndex.onAttribute(new com.googlecode.cqengine.attribute.SimpleAttribute<Vehicle, String>(
                    Vehicle.class, String.class, "refusing") {
                @Override
                public String getValue(Vehicle v, com.googlecode.cqengine.query.option.QueryOptions o) {
                    if (v.maker().equals("Volvo") && v.id() > 500_000_000) {
                        throw new IllegalStateException("this target refuses " + v);
                    }
                    return v.maker();
                }
            }));
            List<Progress> progress = new ArrayList<>();
            QuackException e = assertThrows(QuackException.class,
                    () -> DiskPersistenceMigration.copy(source, Vehicle.ID, target, progress::add));
            StringBuilder chain = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                chain.append(t).append('\n');
            }
            assertTrue(chain.toString().contains("this target refuses"), chain.toString());
            assertEquals(1, target.size(), "nothing of the failed copy is stored");
            assertTrue(target.contains(kept));
            assertTrue(progress.get(progress.size() - 1).finished());
        }
        assertSourceStillHoldsEverything();
    }

    private static void assertContents(IndexedCollection<Vehicle> target) {
        assertEquals(written.size(), target.size());
        Map<Integer, Vehicle> stored = new HashMap<>();
        for (Vehicle v : target) {
            assertTrue(stored.put(v.id(), v) == null, "one object per key");
        }
        assertEquals(written, stored);
    }

    /** The target answers queries as the source collection does. */
    private static void assertSameAnswersAsSource(IndexedCollection<Vehicle> target) {
        List<Query<Vehicle>> queries = List.of(equal(Vehicle.MAKER, "Volvo"), greaterThan(Vehicle.PRICE, 500.0),
                and(equal(Vehicle.MAKER, "Fiat"), greaterThan(Vehicle.PRICE, 250.0)));
        DiskPersistence<Vehicle, Integer> persistence = DiskPersistence.onPrimaryKeyInFile(Vehicle.ID, source);
        try {
            IndexedCollection<Vehicle> sourceCollection = new ConcurrentIndexedCollection<>(persistence);
            for (Query<Vehicle> q : queries) {
                assertEquals(ids(sourceCollection, q), ids(target, q), q.toString());
                assertFalse(ids(target, q).isEmpty(), q.toString());
            }
        } finally {
            persistence.close();
        }
    }

    private static List<Integer> ids(IndexedCollection<Vehicle> collection, Query<Vehicle> query) {
        List<Integer> ids = new ArrayList<>();
        try (ResultSet<Vehicle> rs = collection.retrieve(query)) {
            rs.forEach(v -> ids.add(v.id()));
        }
        ids.sort(null);
        return ids;
    }

    private static void assertSourceStillHoldsEverything() {
        DiskPersistence<Vehicle, Integer> persistence = DiskPersistence.onPrimaryKeyInFile(Vehicle.ID, source);
        try {
            IndexedCollection<Vehicle> cars = new ConcurrentIndexedCollection<>(persistence);
            assertEquals(written.size(), cars.size());
        } finally {
            persistence.close();
        }
    }
}
