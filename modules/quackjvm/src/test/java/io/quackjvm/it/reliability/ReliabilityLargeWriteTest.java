package io.quackjvm.it.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One acknowledged large write, then {@code kill -9} before any checkpoint, then reopening: every write path
 * (addAll, update, update with BULK_IMPORT, the bulk writer, a TransactionalIndexedCollection) at sizes on both
 * sides of DuckDB's thresholds: a vector (2,048 rows), the collection's row group (16,384 rows, the size from which
 * DuckDB writes a transaction's rows to the file before commit), several row groups, and a checkpoint threshold the
 * commit crosses. After reopening, every key answers {@code equal(pk)} and {@code contains} with its acknowledged
 * version, the indexes agree with the objects (through the collection and in plain SQL), and a further replacing
 * write of the same keys leaves one object per key.
 */
class ReliabilityLargeWriteTest {

    private static final int STORED = 40_000;

    @TempDir
    static Path dir;

    private static Path base;

    private static final List<String> REPORT = new ArrayList<>(List.of(
            "| write | child (s) | check (s) |", "|---|---|---|"));

    @BeforeAll
    static void storeTheBaseFile() {
        base = dir.resolve("base.duckdb");
        try (PartStore store = new PartStore(base)) {
            store.parts.addAll(new LargeWrite(LargeWrite.Via.ADD_ALL, 0, STORED, 0, "default").adds());
        }
    }

    @AfterAll
    static void report() throws Exception {
        Soak.report("Large writes killed after their acknowledgement (" + (REPORT.size() - 2)
                + " writes, every key found by equal(pk) and contains after reopening)", REPORT);
    }

    static Stream<LargeWrite> writes() {
        List<LargeWrite> writes = new ArrayList<>();
        for (LargeWrite.Via via : LargeWrite.Via.values()) {
            writes.add(new LargeWrite(via, 16_384, 0, STORED, "default"));
        }
        writes.add(new LargeWrite(LargeWrite.Via.ADD_ALL, 16_385, 60_000, STORED, "default"));
        writes.add(new LargeWrite(LargeWrite.Via.UPDATE, 2_049, 0, STORED, "default"));
        writes.add(new LargeWrite(LargeWrite.Via.BULK_WRITER, STORED, 0, STORED, "1MB"));
        if (Soak.FULL) {
            for (LargeWrite.Via via : LargeWrite.Via.values()) {
                for (int replaced : new int[]{2_047, 2_048, 2_049, 16_383, 16_385, 32_768, 32_769, STORED}) {
                    writes.add(new LargeWrite(via, replaced, 0, STORED, "default"));
                }
                writes.add(new LargeWrite(via, 16_384, 122_880, STORED, "default"));
                writes.add(new LargeWrite(via, 16_384, 0, STORED, "1MB"));
                writes.add(new LargeWrite(via, STORED, 40_000, STORED, "4MB"));
            }
        }
        return writes.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    void anAcknowledgedLargeWriteSurvivesKill9(LargeWrite write) throws Exception {
        Path db = dir.resolve("case-" + System.nanoTime() + ".duckdb");
        Files.copy(base, db);
        long t0 = System.nanoTime();
        runAndKill(write, db);
        long t1 = System.nanoTime();

        Map<Integer, Part> expected = Consistency.objects(write.after());
        String table;
        try (PartStore store = write.open(db)) {
            // every seventh replaced key and both ends of the replaced range by key; contents() below compares all
            for (int key = 0; key < STORED + write.added(); key += Math.abs(key - write.replaced()) < 3 ? 1 : 7) {
                Part want = expected.get(key);
                List<Part> found = new ArrayList<>();
                store.parts.retrieve(equal(Part.ID, key)).forEach(found::add);
                assertEquals(List.of(want), found, write + ": equal(pk) of key " + key);
                assertTrue(store.parts.contains(want), write + ": contains " + want);
            }
            Map<Integer, Part> stored = store.contents();
            assertEquals(expected, stored, write + ": the stored objects");
            Consistency.indexesAgreeWithObjects(store, stored.values(), write.toString());
            table = store.persistence.getTableName();
            // a replacing write of the same keys after recovery leaves one object per key
            List<Part> again = new ArrayList<>();
            for (int key = 0; key < Math.max(1, write.replaced()); key++) {
                again.add(Part.of(key, 3));
                expected.put(key, Part.of(key, 3));
            }
            store.parts.addAll(again);
            assertEquals(expected.size(), store.parts.size(), write + ": size after replacing the keys again");
        }
        List<io.quackjvm.api.DuckDBIndex<?, Part>> indexes;
        try (PartStore store = write.open(db)) {
            assertEquals(expected, store.contents(), write + ": the objects after replacing again and reopening");
            indexes = store.indexes();
        }
        Consistency.tablesAgreeInSql(db, table, indexes, expected.values(), write.toString());
        String line = String.format("| %s | %.1f | %.1f |", write, (t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9);
        System.out.println(line);
        synchronized (REPORT) {
            REPORT.add(line);
        }
        Files.delete(db);
        Files.deleteIfExists(dir.resolve(db.getFileName() + ".wal"));
    }

    /** Runs the write in a child JVM, waits for its acknowledgement and kills the child with SIGKILL. */
    private static void runAndKill(LargeWrite write, Path db) throws Exception {
        Process child = new ProcessBuilder(ChildJvm.command(LargeWriteWorker.class,
                List.of("-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                write.args(db))).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        boolean acked = false;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.equals("ACK")) {
                    acked = true;
                    break;
                }
                output.append(line).append('\n');
            }
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), write + ": the child did not die");
        }
        assertTrue(acked, write + ": the child ended without acknowledging the write; its output:\n" + output);
        assertEquals(137, child.exitValue(), write + ": the child was not ended by SIGKILL");
    }

    @org.junit.jupiter.api.Test
    void aFileKilledBeforeItsFirstCheckpointIsReadableReadOnlyAfterTheLibraryOpenedAndClosedIt() throws Exception {
        // The child creates the file: the tables and the ART index exist only in the log when it is killed.
        // DuckDB cannot replay a log holding a CREATE INDEX read-only, so the library's clean close must leave
        // no log behind, even when nothing was written after reopening.
        Path db = dir.resolve("fresh-" + System.nanoTime() + ".duckdb");
        LargeWrite write = new LargeWrite(LargeWrite.Via.ADD_ALL, 0, 10, 0, "default");
        runAndKill(write, db);
        String table;
        List<io.quackjvm.api.DuckDBIndex<?, Part>> indexes;
        try (PartStore store = write.open(db)) {
            assertEquals(Consistency.objects(write.after()), store.contents(), "the objects after the kill");
            table = store.persistence.getTableName();
            indexes = store.indexes();
        }
        assertTrue(!Files.exists(dir.resolve(db.getFileName() + ".wal")), "a log is left after a clean close");
        Consistency.tablesAgreeInSql(db, table, indexes, Consistency.objects(write.after()).values(), "read-only open");
    }
}
