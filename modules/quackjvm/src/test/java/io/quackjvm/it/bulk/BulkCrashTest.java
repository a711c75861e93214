package io.quackjvm.it.bulk;

import com.googlecode.cqengine.IndexedCollection;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real child JVM killed with SIGKILL in the middle of a bulk load: after reopening, every committed load is
 * there, nothing of the interrupted one, and the index tables agree with the objects. Twice, the second time on
 * the file the first kill left.
 */
class BulkCrashTest {

    @TempDir
    Path dir;

    @Test
    void aLoadKilledHalfWayLeavesTheCommittedLoadsOnly() throws Exception {
        Path file = dir.resolve("crash.duckdb");
        int n = 1_200;
        int expected = 0;
        for (int round = 0; round < 2; round++) {
            int loads = 2;
            Process child = new ProcessBuilder(ChildJvm.command(BulkCrashWorker.class,
                    List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                    List.of(file.toString(), Integer.toString(n), Integer.toString(loads))))
                    .redirectErrorStream(true).start();
            List<String> output = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    output.add(line);
                    if (line.equals("LOADING")) {
                        break;
                    }
                }
                child.destroyForcibly();
                assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not die");
            } finally {
                child.destroyForcibly();
            }
            assertTrue(output.contains("LOADING"), "the child never reached its last load: " + output);
            assertEquals(137, child.exitValue(), "the child was not ended by SIGKILL: " + output);
            expected += loads * n;
            assertTrue(output.contains("COMMITTED " + expected), output.toString());

            try (DuckDBPersistence<Car, Integer> p = BulkCrashWorker.open(file)) {
                IndexedCollection<Car> cars = BulkCrashWorker.collection(p);
                Set<Car> want = new HashSet<>();
                for (int i = 0; i < expected; i++) {
                    want.add(Car.of(i));
                }
                BulkWriterTest.assertContents(cars, want);
            }
        }
    }
}
