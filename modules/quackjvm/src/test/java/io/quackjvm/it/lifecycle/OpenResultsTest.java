package io.quackjvm.it.lifecycle;

import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.it.reliability.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An application that keeps many results open on purpose pays nothing for it beyond their memory: the library
 * never asks the JVM for a garbage collection, however many are open. Checked from the JVM's own collection log
 * in a child process, which names every collection {@code System.gc()} caused.
 */
class OpenResultsTest {

    @TempDir
    Path dir;

    @Test
    void manyOpenResultsNeverMakeTheLibraryRequestACollection() throws Exception {
        int n = 300;
        int open = 200;
        Path gcLog = dir.resolve("gc.log");
        Path output = dir.resolve("out.txt");
        Process child = new ProcessBuilder(ChildJvm.command(OpenResultsWorker.class,
                List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xlog:gc:file=" + gcLog,
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                List.of(Integer.toString(n), Integer.toString(open))))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child did not finish");
        } finally {
            child.destroyForcibly();
        }
        String out = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), out);
        assertTrue(out.contains("READ " + (long) n * open), "every open iterator reads to its end: " + out);
        String log = Files.readString(gcLog, StandardCharsets.UTF_8);
        assertFalse(log.contains("System.gc()"), "the library requested a collection:\n" + log);
    }

    /**
     * What a half-read result holds is bounded by how far DuckDB runs ahead of the reader: a small buffer by
     * default, on every connection (the pool's duplicates inherit it from the root); a user can still choose
     * DuckDB's own default, which DuckDB itself refuses as an open-time setting.
     */
    @Test
    void streamingBufferIsSmallByDefaultAndTheUsersChoiceIsHonoured() throws Exception {
        TestPool pool = new TestPool(UnaryOperator.identity(), () -> { });
        try (DuckDBDatabase db = DuckDBDatabase.builder().connectionPool(pool).build()) {
            assertEquals("15.6 KiB", bufferOfALentConnection(pool), "16KB, as DuckDB prints it");
        }
        TestPool chosen = new TestPool(UnaryOperator.identity(), () -> { });
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("b.duckdb")).connectionPool(chosen)
                .property("streaming_buffer_size", "2MB").build()) {
            assertEquals("1.9 MiB", bufferOfALentConnection(chosen));
        }
    }

    private static String bufferOfALentConnection(TestPool pool) throws Exception {
        PooledConnection lent = pool.borrow();
        try (Statement s = lent.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT current_setting('streaming_buffer_size')::VARCHAR")) {
            assertTrue(rs.next());
            return rs.getString(1);
        } finally {
            lent.close();
        }
    }
}
