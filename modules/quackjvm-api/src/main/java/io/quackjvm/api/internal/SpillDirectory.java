package io.quackjvm.api.internal;

import io.quackjvm.api.QuackException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where in-memory databases spill. DuckDB 1.5 evicts an in-memory database's table data to temporary files when
 * {@code memory_limit} is reached, by default into {@code .tmp} under the working directory, which may be read-only
 * or shared with other processes. Every in-memory database of this process spills under one directory of the
 * process instead: {@code quackjvm-spill-p<pid>-<random>} under {@code java.io.tmpdir}, created when the first
 * in-memory database opens. Each database is given a directory inside it that DuckDB creates when it first spills
 * and removes when its instance closes; {@link #delete} removes it too (on close, or when the garbage collector
 * releases an unclosed database).
 *
 * <p>A spill directory never outlives its process: the process's directory is removed by a shutdown hook, and
 * one left by a process that could not run its hooks (killed, crashed) is removed by the next process that opens
 * an in-memory database in the same {@code java.io.tmpdir}: its name carries the process id, and a directory whose
 * process is no longer alive is deleted.
 */
final class SpillDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(SpillDirectory.class);
    /** The name of every process's directory starts with this, followed by the process id. */
    static final String PREFIX = "quackjvm-spill-p";
    private static final AtomicLong NEXT = new AtomicLong();
    /** The directory of this process; guarded by the class. */
    private static Path processDirectory;

    private SpillDirectory() {
    }

    /**
     * A directory for one in-memory database, inside this process's directory; not created (DuckDB creates it when
     * it first spills).
     */
    static Path create() {
        return ofProcess().resolve("db-" + NEXT.incrementAndGet());
    }

    /** This process's directory, created (and the directories of dead processes swept) on first use. */
    static synchronized Path ofProcess() {
        if (processDirectory != null && Files.isDirectory(processDirectory)) {
            return processDirectory;
        }
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        if (processDirectory == null) {
            sweep(tmp);
        }
        try {
            Path dir = Files.createTempDirectory(tmp, PREFIX + ProcessHandle.current().pid() + "-");
            if (processDirectory == null) {
                Runtime.getRuntime().addShutdownHook(new Thread(SpillDirectory::deleteOfProcess,
                        "quackjvm-spill-cleanup"));
            }
            processDirectory = dir;
            return dir;
        } catch (IOException | SecurityException e) {
            throw new QuackException("Cannot create a temporary directory for in-memory databases to spill to under "
                    + tmp + ": " + e.getMessage() + ". Make java.io.tmpdir writable, or pass "
                    + "property(\"temp_directory\", \"<a writable directory>\").", e);
        }
    }

    private static synchronized void deleteOfProcess() {
        delete(processDirectory);
    }

    /**
     * Deletes the spill directories under {@code tmp} of processes that are no longer alive.
     *
     * @return how many were deleted
     */
    static int sweep(Path tmp) {
        int deleted = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, PREFIX + "*")) {
            for (Path dir : dirs) {
                long pid = pidOf(dir.getFileName().toString());
                if (pid > 0 && pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty()
                        && Files.isDirectory(dir)) {
                    delete(dir);
                    if (!Files.exists(dir)) {
                        deleted++;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not look for spill directories of ended processes under {}: {}", tmp, e.getMessage());
        }
        if (deleted > 0) {
            LOG.debug("Deleted {} spill director(ies) of ended processes under {}", deleted, tmp);
        }
        return deleted;
    }

    /** The process id in a process directory's name, or -1. */
    static long pidOf(String name) {
        if (!name.startsWith(PREFIX)) {
            return -1;
        }
        int end = name.indexOf('-', PREFIX.length());
        try {
            return Long.parseLong(name.substring(PREFIX.length(), end < 0 ? name.length() : end));
        } catch (NumberFormatException e) {
            return -1;
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
            LOG.warn("Could not delete the spill directory {} of an in-memory database: {}", dir, e.getMessage());
        }
    }
}
