package io.quackjvm.it.snapshot;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.QuackException;
import io.quackjvm.it.Car;
import io.quackjvm.it.reliability.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code snapshot(Path)} while the application keeps writing: the copy holds exactly the writes committed before
 * it began, whole, with its indexes; other JVMs serve it read-only at once; it restores; bad targets are refused
 * leaving nothing behind.
 */
class SnapshotTest {

    private static final int BASE = 5_000;
    /** Each write request adds this many cars in one transaction, so a torn copy shows as a count off the grid. */
    private static final int BATCH = 7;

    @TempDir
    Path dir;

    private DuckDBDatabase open(boolean inMemory) {
        return open(inMemory ? "memory" : "file");
    }

    /** A file database, an in-memory one with a DuckDB instance of its own, or a catalog of the shared engine. */
    private DuckDBDatabase open(String kind) {
        return switch (kind) {
            case "file" -> DuckDBDatabase.builder().file(dir.resolve("live.duckdb")).build();
            case "memory" -> DuckDBDatabase.builder().memoryLimit("256MB").build();
            case "shared" -> DuckDBDatabase.builder().build();
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /** The schemas of a database file, read with DuckDB's own driver. */
    private static List<String> schemasOf(Path file) throws Exception {
        Properties readOnly = new Properties();
        readOnly.setProperty("access_mode", "READ_ONLY");
        List<String> schemas = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, readOnly);
             Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT DISTINCT schema_name FROM duckdb_schemas() "
                     + "WHERE database_name = current_database() ORDER BY 1")) {
            while (rs.next()) {
                schemas.add(rs.getString(1));
            }
        }
        return schemas;
    }

    private static IndexedCollection<Car> cars(DuckDBDatabase db) {
        IndexedCollection<Car> cars = db.collection(Car.CAR_ID).build();
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        return cars;
    }

    /** A writer adding batches of cars with rising ids until stopped; {@link #acked} is the last id acknowledged. */
    private static final class Writer extends Thread {
        final IndexedCollection<Car> cars;
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger acked = new AtomicInteger(BASE - 1);
        final AtomicInteger started = new AtomicInteger(BASE - 1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Writer(IndexedCollection<Car> cars) {
            super("snapshot-test-writer");
            this.cars = cars;
        }

        @Override
        public void run() {
            try {
                int next = BASE;
                while (!stop.get()) {
                    List<Car> batch = new ArrayList<>();
                    for (int i = 0; i < BATCH; i++) {
                        batch.add(Car.of(next + i));
                    }
                    started.set(next + BATCH - 1);
                    cars.addAll(batch);
                    acked.set(next + BATCH - 1);
                    next += BATCH;
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }

        void finish() throws InterruptedException {
            stop.set(true);
            join(60_000);
            assertFalse(isAlive(), "the writer did not stop");
            assertNull(failure.get(), () -> "the writer failed: " + failure.get());
        }
    }

    /** The ids of the cars in a snapshot, after checking that its index answers as the objects do. */
    private static TreeSet<Integer> idsOf(Path snapshot) {
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(snapshot).readOnly().build()) {
            IndexedCollection<Car> cars = cars(db);
            TreeSet<Integer> ids = new TreeSet<>();
            List<Car> all = new ArrayList<>();
            cars.forEach(c -> {
                ids.add(c.carId());
                all.add(c);
            });
            for (String maker : List.of(Car.of(1).manufacturer(), Car.of(2).manufacturer())) {
                long expected = all.stream().filter(c -> c.manufacturer().equals(maker)).count();
                try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, maker))) {
                    assertEquals(expected, rs.size(), "the index of the snapshot disagrees with its objects");
                }
            }
            assertEquals(ids.size(), db.query("SELECT count(*) FROM car").scalar(Long.class));
            assertEquals(ids.size(), all.size());
            for (Car c : all) {
                assertEquals(Car.of(c.carId()), c);
            }
            return ids;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"file", "memory", "shared"})
    void holdsExactlyTheWritesCommittedBeforeItWhileAWriterKeepsWriting(String kind) throws Exception {
        try (DuckDBDatabase db = open(kind)) {
            IndexedCollection<Car> cars = cars(db);
            cars.addAll(Car.firstN(BASE));
            // the SQL views exist before the copy, and must not travel into it
            assertEquals(BASE, db.query("SELECT count(*) FROM car").scalar(Long.class));
            Writer writer = new Writer(cars);
            writer.start();
            while (writer.acked.get() < BASE + 20 * BATCH) {
                Thread.onSpinWait();
            }
            int ackedBefore = writer.acked.get();
            Path snapshot = dir.resolve("snap.duckdb");
            db.snapshot(snapshot);
            int startedAfter = writer.started.get();
            // the writer kept writing during and after the copy
            while (writer.acked.get() < startedAfter + 10 * BATCH) {
                Thread.onSpinWait();
            }
            writer.finish();

            List<String> schemas = schemasOf(snapshot);
            assertTrue(schemas.contains("main") && !schemas.contains("quackjvm_sql"),
                    "the SQL views travelled into the snapshot: " + schemas);
            TreeSet<Integer> ids = assertConsistent(snapshot, ackedBefore, startedAfter);
            assertTrue(cars.size() > ids.size(), "the live collection did not move on");
            try (Stream<Path> files = Files.list(dir)) {
                assertEquals(List.of(), files.map(p -> p.getFileName().toString())
                        .filter(n -> n.contains("partial")).toList(), "temporary files were left behind");
            }
        }
    }

    /**
     * Checks a snapshot taken while a {@link Writer} wrote, between {@code ackedBefore} and {@code startedAfter}:
     * an unbroken run of whole write requests holding every one acknowledged before; returns its ids.
     */
    private static TreeSet<Integer> assertConsistent(Path snapshot, int ackedBefore, int startedAfter) {
        TreeSet<Integer> ids = idsOf(snapshot);
        int last = ids.last();
        assertEquals(last + 1, ids.size(), "the snapshot's ids are not one run from 0: a write is torn or lost");
        assertEquals(0, (last + 1 - BASE) % BATCH, "the snapshot holds part of a write request: " + (last + 1));
        assertTrue(last >= ackedBefore, "a write acknowledged before the snapshot is missing: " + last + " < "
                + ackedBefore);
        assertTrue(last <= startedAfter, "the snapshot holds a write started after it ended");
        return ids;
    }

    @Test
    void aSnapshotOfAFileIsTheFileAsOfACheckpoint() throws Exception {
        Path live = dir.resolve("live.duckdb");
        Path snapshot = dir.resolve("copy.duckdb");
        try (DuckDBDatabase db = open("file")) {
            IndexedCollection<Car> cars = cars(db);
            cars.addAll(Car.firstN(BASE));
            db.snapshot(snapshot);
            // nothing was written since: the file, checkpointed, and the snapshot are the same bytes
            assertEquals(-1L, Files.mismatch(live, snapshot), "the snapshot is not a copy of the checkpointed file");
            cars.add(Car.of(BASE));
        }
        assertEquals(BASE, idsOf(snapshot).size());
    }

    @Test
    void aFileLargerThanWhatIsWrittenBackAtOnceIsCopiedWhole() throws Exception {
        Path live = dir.resolve("live.duckdb");
        Path snapshot = dir.resolve("copy.duckdb");
        int n = 400_000;
        try (DuckDBDatabase db = open("file")) {
            IndexedCollection<Car> cars = cars(db);
            try (DuckDBBulkWriter<Car> w = db.bulkWriter(cars)) {
                w.addAll(Car.firstN(n));
                w.commit();
            }
            db.snapshot(snapshot);
            // the copy is written back to disk 16 MiB at a time while it is made: this file takes three steps
            assertTrue(Files.size(live) > 2 * (16 << 20), "the file is too small to test that: " + Files.size(live));
            assertEquals(-1L, Files.mismatch(live, snapshot), "the snapshot is not a whole copy of the file");
        }
        assertEquals(n, idsOf(snapshot).size());
    }

    @Test
    void staysConsistentWhenCheckpointsRunDuringIt() throws Exception {
        try (DuckDBDatabase db = open("file")) {
            IndexedCollection<Car> cars = cars(db);
            cars.addAll(Car.firstN(BASE));
            Writer writer = new Writer(cars);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            // optimize() rewrites the index tables and checkpoints: the file changes under the copy
            Thread checkpointer = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        db.optimize();
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "snapshot-test-checkpointer");
            writer.start();
            checkpointer.start();
            try {
                for (int round = 0; round < 5; round++) {
                    int ackedBefore = writer.acked.get();
                    Path snapshot = dir.resolve("snap-" + round + ".duckdb");
                    db.snapshot(snapshot);
                    int startedAfter = writer.started.get();
                    assertConsistent(snapshot, ackedBefore, startedAfter);
                }
            } finally {
                stop.set(true);
                checkpointer.join(60_000);
                writer.finish();
            }
            assertFalse(checkpointer.isAlive(), "the checkpointer did not stop");
            assertNull(failure.get(), () -> "optimize() failed: " + failure.get());
        }
    }

    @Test
    void otherJvmsServeASnapshotReadOnlyAtOnceWhileTheOriginalKeepsChanging() throws Exception {
        Path snapshot = dir.resolve("served.duckdb");
        try (DuckDBDatabase db = open(false)) {
            IndexedCollection<Car> cars = cars(db);
            cars.addAll(Car.firstN(BASE));
            db.snapshot(snapshot);
            Writer writer = new Writer(cars);
            writer.start();
            List<Process> readers = new ArrayList<>();
            List<BufferedReader> outputs = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    Process p = new ProcessBuilder(ChildJvm.command(SnapshotReader.class, List.of(),
                            List.of(snapshot.toString()))).redirectErrorStream(true).start();
                    readers.add(p);
                    outputs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
                }
                // both hold the snapshot open at the same time before either is let go
                for (BufferedReader out : outputs) {
                    assertEquals("open", firstLineStartingWith(out, "open"));
                }
                for (Process p : readers) {
                    try (OutputStream in = p.getOutputStream()) {
                        in.write('\n');
                    }
                }
                long ofMaker = Car.firstN(BASE).stream()
                        .filter(c -> c.manufacturer().equals(Car.of(1).manufacturer())).count();
                long idSum = (long) BASE * (BASE - 1) / 2;
                for (int i = 0; i < readers.size(); i++) {
                    assertEquals("served " + BASE + " " + idSum + " " + ofMaker + " " + BASE,
                            firstLineStartingWith(outputs.get(i), "served"));
                    assertTrue(readers.get(i).waitFor(60, TimeUnit.SECONDS), "a reader did not end");
                    assertEquals(0, readers.get(i).exitValue());
                }
            } finally {
                readers.forEach(Process::destroyForcibly);
                writer.finish();
            }
            assertTrue(cars.size() > BASE, "the original did not keep changing while the snapshot was served");
        }
    }

    private static String firstLineStartingWith(BufferedReader out, String prefix) throws Exception {
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("the reader ended without printing '" + prefix + "':\n" + seen);
    }

    @Test
    void aSnapshotPutInPlaceOfTheFileRestoresIt() throws Exception {
        Path live = dir.resolve("live.duckdb");
        Path snapshot = dir.resolve("backup.duckdb");
        try (DuckDBDatabase db = open(false)) {
            IndexedCollection<Car> cars = cars(db);
            cars.addAll(Car.firstN(1_000));
            db.snapshot(snapshot);
            cars.removeIf(c -> c.carId() < 500);
            cars.add(Car.of(70_000));
        }
        Files.delete(live);
        Files.move(snapshot, live);
        try (DuckDBDatabase db = open(false)) {
            IndexedCollection<Car> cars = cars(db);
            assertEquals(1_000, cars.size());
            assertTrue(cars.contains(Car.of(0)));
            assertFalse(cars.contains(Car.of(70_000)));
            // the restored file is writable as any other
            cars.add(Car.of(70_001));
            assertEquals(1_001, cars.size());
        }
    }

    @Test
    void refusesATargetThatExistsOrWhoseDirectoryDoesNotAndLeavesNothing() throws Exception {
        try (DuckDBDatabase db = open(false)) {
            cars(db).addAll(Car.firstN(100));
            Path existing = dir.resolve("existing.duckdb");
            Files.writeString(existing, "keep me");
            QuackException e = assertThrows(QuackException.class, () -> db.snapshot(existing));
            assertTrue(e.getMessage().contains("already exists") && e.getMessage().contains(existing.toString()),
                    e.getMessage());
            assertEquals("keep me", Files.readString(existing));

            Path noDir = dir.resolve("missing").resolve("snap.duckdb");
            e = assertThrows(QuackException.class, () -> db.snapshot(noDir));
            assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
            assertFalse(Files.exists(noDir.getParent()));

            QuackException self = assertThrows(QuackException.class, () -> db.snapshot(dir.resolve("live.duckdb")));
            assertTrue(self.getMessage().contains("already exists"), self.getMessage());
            try (Stream<Path> files = Files.list(dir)) {
                assertEquals(List.of("existing.duckdb", "live.duckdb"),
                        files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".wal")).sorted()
                                .toList());
            }
        }
    }

    @Test
    void aClosedDatabaseRefusesASnapshot() {
        DuckDBDatabase db = open(false);
        cars(db).addAll(Car.firstN(10));
        db.close();
        assertThrows(PersistenceClosedException.class, () -> db.snapshot(dir.resolve("late.duckdb")));
        assertFalse(Files.exists(dir.resolve("late.duckdb")));
    }

    @Test
    void readOnlyOpensASnapshotForReadingAndRefusesWrites() {
        Path snapshot = dir.resolve("ro.duckdb");
        try (DuckDBDatabase db = open(false)) {
            cars(db).addAll(Car.firstN(100));
            db.snapshot(snapshot);
        }
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(snapshot).readOnly().build()) {
            IndexedCollection<Car> cars = cars(db);
            assertEquals(100, cars.size());
            QuackException e = assertThrows(QuackException.class, () -> cars.add(Car.of(500)));
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
            // a read-only database can itself be snapshotted
            db.snapshot(dir.resolve("copy-of-ro.duckdb"));
        }
        assertEquals(100, idsOf(dir.resolve("copy-of-ro.duckdb")).size());
    }

    @Test
    void readOnlyNeedsAFileAndIsOneOptionWithAccessMode() {
        IllegalArgumentException noFile = assertThrows(IllegalArgumentException.class,
                () -> DuckDBDatabase.builder().readOnly().build());
        assertTrue(noFile.getMessage().contains("readOnly()") && noFile.getMessage().contains("file"),
                noFile.getMessage());
        IllegalStateException twice = assertThrows(IllegalStateException.class,
                () -> DuckDBDatabase.builder().readOnly().property("access_mode", "READ_ONLY"));
        assertTrue(twice.getMessage().contains("access_mode"), twice.getMessage());
    }
}
