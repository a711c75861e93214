package io.quackjvm.api.internal.database;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The spill directories of ended processes are removed by the next process, and only those: the owner is known
 * by the process id in the name and by the lock its process holds on the directory's lock file.
 */
class SpillDirectoryTest {

    @TempDir
    Path tmp;

    /** The id of a process that has ended. */
    private static long endedPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    private Path processDirectory(long pid, String suffix, boolean withLock) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(SpillDirectory.PREFIX + pid + "-" + suffix));
        if (withLock) {
            Files.createFile(dir.resolve(SpillDirectory.LOCK));
        }
        Files.createDirectories(dir.resolve("db-1"));
        Files.write(dir.resolve("db-1").resolve("duckdb_temp_storage-0.tmp"), new byte[1024]);
        return dir;
    }

    @Test
    void theDirectoryOfAnEndedProcessIsRemoved() throws Exception {
        Path stale = processDirectory(endedPid(), "1", true);
        assertEquals(1, SpillDirectory.sweep(tmp));
        assertFalse(Files.exists(stale));
    }

    @Test
    void aDirectoryWhoseLockIsHeldStays() throws Exception {
        Path held = processDirectory(endedPid(), "2", true);
        try (FileChannel c = FileChannel.open(held.resolve(SpillDirectory.LOCK), StandardOpenOption.WRITE);
             FileLock lock = c.lock()) {
            assertTrue(lock.isValid());
            assertEquals(0, SpillDirectory.sweep(tmp), "its owner still holds the lock");
            assertTrue(Files.exists(held.resolve("db-1")));
        }
    }

    @Test
    void aDirectoryOfALiveProcessOrWithoutALockFileStays() throws Exception {
        Path live = processDirectory(ProcessHandle.current().parent().orElseThrow().pid(), "3", true);
        Path mine = processDirectory(ProcessHandle.current().pid(), "4", true);
        Path noLock = processDirectory(endedPid(), "5", false);
        Path otherName = Files.createDirectories(tmp.resolve("quackjvm-spill-123"));
        assertEquals(0, SpillDirectory.sweep(tmp));
        assertTrue(Files.exists(live) && Files.exists(mine) && Files.exists(noLock) && Files.exists(otherName));
    }

    @Test
    void thisProcessHasOneLockedDirectory() throws Exception {
        Path dir = SpillDirectory.ofProcess();
        assertEquals(ProcessHandle.current().pid(), SpillDirectory.pidOf(dir.getFileName().toString()));
        assertTrue(Files.isRegularFile(dir.resolve(SpillDirectory.LOCK)));
        assertEquals(dir, SpillDirectory.ofProcess());
        assertTrue(SpillDirectory.create().startsWith(dir));
        assertFalse(SpillDirectory.create().equals(SpillDirectory.create()));
    }
}
