package io.quackjvm.it.bulk;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;
import io.quackjvm.it.reliability.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sliced load ({@code commitEvery}) killed with SIGKILL in a real child JVM while a slice is open keeps exactly
 * its committed slices; the same load restarted from the start of its input skips them and ends with every object
 * once (a bulk importer, which fails on a key stored twice, does the load).
 */
class SlicedLoadCrashTest {

    private static final int N = 4_000;
    private static final int SLICE = 400;

    @TempDir
    Path dir;

    private static List<String> run(Path file, int stall) throws Exception {
        Process child = new ProcessBuilder(ChildJvm.command(SlicedLoadWorker.class,
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                List.of(file.toString(), Integer.toString(N), Integer.toString(SLICE), Integer.toString(stall))))
                .redirectErrorStream(true).start();
        List<String> output = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                output.add(line);
                if (line.equals("STALLED")) {
                    child.destroyForcibly();
                    break;
                }
            }
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not end");
        } finally {
            child.destroyForcibly();
        }
        if (stall >= 0) {
            assertTrue(output.contains("STALLED"), "the child never reached the stall: " + output);
            assertEquals(137, child.exitValue(), "the child was not ended by SIGKILL: " + output);
        } else {
            assertEquals(0, child.exitValue(), output.toString());
        }
        return output;
    }

    private static Set<Car> first(int n) {
        Set<Car> cars = new HashSet<>();
        for (int i = 0; i < n; i++) {
            cars.add(Car.of(i));
        }
        return cars;
    }

    @Test
    void aKilledSlicedLoadKeepsItsCommittedSlicesAndARestartFinishesItWithoutDuplicates() throws Exception {
        Path file = dir.resolve("sliced.duckdb");

        List<String> first = run(file, 3);
        assertTrue(first.contains("RESUMED 0"), first.toString());
        try (DuckDBPersistence<Car, Integer> p = BulkCrashWorker.open(file)) {
            // three slices committed; nothing of the fourth, which was half written when the process died
            BulkWriterTest.assertContents(BulkCrashWorker.collection(p), first(3 * SLICE));
        }

        List<String> second = run(file, 6);
        assertTrue(second.contains("RESUMED " + 3 * SLICE), second.toString());
        try (DuckDBPersistence<Car, Integer> p = BulkCrashWorker.open(file)) {
            BulkWriterTest.assertContents(BulkCrashWorker.collection(p), first(6 * SLICE));
        }

        List<String> third = run(file, -1);
        assertTrue(third.contains("RESUMED " + 6 * SLICE), third.toString());
        assertTrue(third.contains("DONE " + N), third.toString());
        try (DuckDBPersistence<Car, Integer> p = BulkCrashWorker.open(file)) {
            IndexedCollection<Car> cars = BulkCrashWorker.collection(p);
            BulkWriterTest.assertContents(cars, first(N));
            // the load ended with its final commit: the next sliced writer starts a new load
            try (DuckDBBulkWriter<Car> w = p.bulkWriter().commitEvery(SLICE)) {
                assertEquals(0, w.resumedAfter());
                w.add(Car.of(N));
                w.commit();
            }
            assertEquals(N + 1, cars.size());
        }
    }

    @Test
    void commitEveryIsSetOnceBeforeTheFirstObject() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).build();
             DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            assertThrows(IllegalArgumentException.class, () -> w.commitEvery(0));
            w.add(Car.of(1));
            assertThrows(IllegalStateException.class, () -> w.commitEvery(10));
        }
    }

    @Test
    void eachSliceIsVisibleOnceCommittedAndTheOpenOneIsNot() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).build()) {
            IndexedCollection<Car> cars = BulkCrashWorker.collection(p);
            try (DuckDBBulkWriter<Car> w = p.bulkWriter().commitEvery(10)) {
                for (int i = 0; i < 25; i++) {
                    w.add(Car.of(i));
                }
                assertEquals(20, cars.size(), "two slices committed, the third open");
                w.close(); // without the final commit: the open slice is rolled back, the load stays resumable
            }
            assertEquals(20, cars.size());
            try (DuckDBBulkWriter<Car> w = p.bulkWriter().commitEvery(10)) {
                assertEquals(20, w.resumedAfter());
                for (int i = 0; i < 25; i++) {
                    w.add(Car.of(i));
                }
                w.commit();
            }
            assertEquals(first(25), new HashSet<>(cars));
        }
    }
}
