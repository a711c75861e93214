package io.quackjvm.api.internal;

import io.quackjvm.api.QuackException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The directory an in-memory database spills to. DuckDB 1.5.5 does evict an in-memory database's table data to
 * temporary files when {@code memory_limit} is reached (its memory view shows it as {@code IN_MEMORY_TABLE}
 * temporary storage), but by default into {@code .tmp} under the process's working directory, which may be
 * read-only or shared with other processes. Each in-memory database gets a directory of its own under
 * {@code java.io.tmpdir} instead, deleted when the database closes.
 */
final class SpillDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(SpillDirectory.class);

    private SpillDirectory() {
    }

    /** Creates a new, empty directory under {@code java.io.tmpdir}. */
    static Path create() {
        try {
            return Files.createTempDirectory("quackjvm-spill-");
        } catch (IOException e) {
            throw new QuackException("Cannot create a temporary directory for an in-memory database to spill to under "
                    + System.getProperty("java.io.tmpdir") + ": " + e.getMessage() + ". Make java.io.tmpdir writable, "
                    + "or pass property(\"temp_directory\", \"<a writable directory>\").", e);
        }
    }

    /** Deletes the directory and whatever DuckDB left in it; a failure is logged, not thrown. */
    static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            DatabaseFiles.deleteTree(dir);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not delete the spill directory {} of a closed in-memory database: {}", dir, e.getMessage());
        }
    }
}
