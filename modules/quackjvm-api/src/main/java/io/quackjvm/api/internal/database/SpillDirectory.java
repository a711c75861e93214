package io.quackjvm.api.internal.database;

import io.quackjvm.api.QuackException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
 * <p>A spill directory never outlives its process. The process's directory is removed by a shutdown hook; one
 * left by a process that could not run its hooks (killed, crashed) is removed by the next process that opens an
 * in-memory database in the same {@code java.io.tmpdir}. The owner is known by a lock, not guessed: each process
 * directory holds a file {@value #LOCK} that its process keeps locked ({@link FileChannel#lock}) for as long as it
 * runs, and the operating system releases that lock when the process ends, however it ends. A directory is
 * deleted only when the process id in its name is not a live process and its lock can be taken. The directory is
 * created under another name and renamed once locked, so no other process ever sees it unlocked. Directories
 * without the lock file (left by earlier versions) are left alone.
 */
final class SpillDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(SpillDirectory.class);
    /** The name of every process's directory starts with this, followed by the process id. */
    static final String PREFIX = "quackjvm-spill-p";
    /** The file in a process's directory that the process holds locked while it runs. */
    static final String LOCK = "owner.lock";
    private static final AtomicLong NEXT = new AtomicLong();
    /** The directory of this process; guarded by the class. */
    private static Path processDirectory;
    /** The open lock file of {@link #processDirectory}, held until the process ends; guarded by the class. */
    private static FileChannel lockChannel;

    private SpillDirectory() {
    }

    /**
     * A directory for one in-memory database, inside this process's directory; not created (DuckDB creates it when
     * it first spills).
     */
    static Path create() {
        return ofProcess().resolve("db-" + NEXT.incrementAndGet());
    }

    /** This process's directory, created (and the directories of ended processes swept) on first use. */
    static synchronized Path ofProcess() {
        if (processDirectory != null && Files.isDirectory(processDirectory)) {
            return processDirectory;
        }
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        if (processDirectory == null) {
            sweep(tmp);
        }
        long pid = ProcessHandle.current().pid();
        try {
            // Locked under a name the sweep ignores, then renamed: the lock is on the file, not on its name.
            Path staging = Files.createTempDirectory(tmp, ".quackjvm-spill-new-");
            FileChannel lock = FileChannel.open(staging.resolve(LOCK), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            try {
                lock.lock();
                Path dir = tmp.resolve(PREFIX + pid + staging.getFileName().toString()
                        .substring(".quackjvm-spill-new".length()));
                Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
                if (processDirectory == null) {
                    Runtime.getRuntime().addShutdownHook(new Thread(SpillDirectory::deleteOfProcess,
                            "quackjvm-spill-cleanup"));
                }
                if (lockChannel != null) {
                    lockChannel.close();
                }
                lockChannel = lock;
                processDirectory = dir;
                return dir;
            } catch (IOException | RuntimeException e) {
                lock.close();
                DatabaseFiles.deleteTree(staging);
                throw e;
            }
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
     * Deletes the spill directories under {@code tmp} of processes that have ended: the process id in the name is
     * not a live process, and the directory's lock file can be locked (no process holds it).
     *
     * @return how many were deleted
     */
    static int sweep(Path tmp) {
        int deleted = 0;
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, PREFIX + "*")) {
            for (Path dir : dirs) {
                long pid = pidOf(dir.getFileName().toString());
                if (pid > 0 && pid != self && ProcessHandle.of(pid).isEmpty() && Files.isDirectory(dir)
                        && ownerEnded(dir)) {
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

    /** Whether the lock file of a process directory exists and no process holds its lock. */
    private static boolean ownerEnded(Path dir) {
        Path lockFile = dir.resolve(LOCK);
        if (!Files.isRegularFile(lockFile)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return false;
            }
            lock.release();
            return true;
        } catch (OverlappingFileLockException e) {
            return false; // held by this process
        } catch (IOException | RuntimeException e) {
            return false;
        }
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
