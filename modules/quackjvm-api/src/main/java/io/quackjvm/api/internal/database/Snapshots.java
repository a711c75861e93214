package io.quackjvm.api.internal.database;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Live snapshots: a consistent, self-contained copy of a whole database in a new file, taken while the database
 * keeps serving reads and writes.
 *
 * <p>A database file that this process writes is copied as it lies on disk, right after a checkpoint. DuckDB never
 * overwrites a block that the file's newest header refers to until it has written a newer header (that is how the
 * file survives a crash in the middle of a checkpoint), and between checkpoints it only appends to the write-ahead
 * log or writes blocks that header marks free. So the file's first three header blocks are read before and after
 * the copy: when neither they nor those of the copy differ, no checkpoint ran meanwhile and the copy holds exactly
 * the database as of the checkpoint, every write committed before it and none after. Writers wait only for that
 * checkpoint; automatic checkpoints are held back while the file is copied, and if one runs anyway the copy is
 * taken again. When the checkpoint cannot run (DuckDB refuses it while another write transaction is open) or keeps
 * being overtaken, the snapshot is taken the other way.
 *
 * <p>The other way serves in-memory and read-only databases too: one DuckDB transaction reads the database's
 * catalog and writes a file attached next to the target; {@code COPY FROM DATABASE} recreates every table,
 * constraint, index and sequence and copies the rows the transaction sees, that is exactly the writes committed
 * before it started. Readers and writers do not wait for it, though a checkpoint it overlaps is put off until it
 * ends.
 *
 * <p>The SQL views and decoding macros of {@code database.query} are never part of a snapshot: they live in the
 * in-memory catalog and are recreated whenever a database is opened. The file is written under a temporary name in
 * the target's directory, made durable, and only then moved to the target, so a snapshot that fails leaves nothing
 * behind and a file at the target is always complete.
 */
public final class Snapshots {

    /** The schema of the SQL views and macros; recreated on open, so not copied. */
    private static final String VIEWS_SCHEMA = "quackjvm_sql";
    /** DuckDB's main header and its two database headers, each one block of 4 KiB at the start of the file. */
    private static final int HEADERS = 3 * 4096;
    /** How often the file is copied before a snapshot is taken the other way. */
    private static final int FILE_COPY_ATTEMPTS = 3;
    /** How much of a file is copied between two requests to write the copy back to disk. */
    private static final long WRITEBACK_STEP = 16L << 20;
    private static final AtomicLong NEXT = new AtomicLong();
    private static final Logger LOG = LoggerFactory.getLogger(Snapshots.class);

    private Snapshots() {
    }

    /**
     * Copies {@code db} into a new database file at {@code target}.
     *
     * @throws QuackException naming the problem when the target exists, its directory does not, or the copy fails;
     *                        nothing is left at the target then
     */
    public static void take(Database db, Path target) {
        db.checkOpen();
        Path file = target.toAbsolutePath().normalize();
        Path dir = file.getParent();
        if (Files.exists(file) || Files.exists(wal(file))) {
            throw new QuackException("Cannot take a snapshot into " + file + ": it already exists. A snapshot is "
                    + "written to a new file; choose a path that does not exist, or delete the old file first");
        }
        if (dir == null || !Files.isDirectory(dir)) {
            throw new QuackException("Cannot take a snapshot into " + file + ": its directory " + dir
                    + " does not exist; create it first");
        }
        long n = NEXT.incrementAndGet();
        Path partial = dir.resolve("." + file.getFileName() + ".partial-" + ProcessHandle.current().pid() + "-" + n);
        String alias = "quackjvm_snapshot_" + n;
        String source = "\"" + db.catalog().replace("\"", "\"\"") + "\"";
        boolean moved = false;
        db.snapshotLock().lock();
        try {
            if (db.isInMemory() || db.readOnly() || !copyFile(db, partial)) {
                copy(db, source, partial, alias);
            }
            if (Files.exists(wal(partial))) {
                throw new QuackException("The snapshot of the " + db.describe() + " left a write-ahead log after "
                        + "its checkpoint; nothing was kept at " + file + ". Try again.");
            }
            move(partial, file);
            moved = true;
        } finally {
            if (!moved) {
                deleteQuietly(partial);
                deleteQuietly(wal(partial));
            }
            db.snapshotLock().unlock();
            Reference.reachabilityFence(db);
        }
    }

    /**
     * Checkpoints the database and copies its file to {@code partial}; {@code true} when the copy is consistent,
     * {@code false}, leaving nothing at {@code partial}, when a checkpoint could not be run or ran during every
     * attempt.
     */
    private static boolean copyFile(Database db, Path partial) {
        Path source = db.file();
        String checkpoint = db.checkpointSql();
        HeldSetting threshold = db.checkpointThreshold();
        try (PooledConnection c = db.borrow(); Statement s = c.connection().createStatement()) {
            db.running().started(s);
            boolean raised = false;
            try {
                db.collections().ensurePendingMetadata(c);
                // a commit that fills the log past the threshold would checkpoint in the middle of the copy
                raised = threshold.change(s, "1TB");
                for (int attempt = 0; attempt < FILE_COPY_ATTEMPTS; attempt++) {
                    db.checkOpen();
                    if (!checkpointed(s, checkpoint)) {
                        return false;
                    }
                    byte[] before = headers(source);
                    copyDurably(source, partial);
                    db.checkOpen();
                    if (Arrays.equals(before, headers(source)) && Arrays.equals(before, headers(partial))) {
                        return true;
                    }
                    LOG.debug("A checkpoint of the {} ran while its file was copied; copying it again", db.describe());
                    Files.deleteIfExists(partial);
                }
                return false;
            } finally {
                if (raised) {
                    restoreThreshold(db, s, threshold);
                }
                db.running().finished(s);
            }
        } catch (SQLException e) {
            QuackException closed = db.running().cancelledByClose("The snapshot", e);
            throw closed != null ? closed : Failures.wrap("Taking a snapshot of the " + db.describe(), checkpoint, e);
        } catch (IOException e) {
            throw new QuackException("Taking a snapshot of the " + db.describe() + " failed while copying " + source
                    + " to " + partial + ": " + e + ". Nothing was kept; check the directory's free space and "
                    + "permissions", e);
        }
    }

    /** Runs the checkpoint; {@code false} when DuckDB refused it, as it does while another write is open. */
    private static boolean checkpointed(Statement s, String checkpoint) {
        try {
            s.execute(checkpoint);
            return true;
        } catch (SQLException e) {
            LOG.debug("Snapshot: the checkpoint did not run ({}); copying through a transaction", e.getMessage());
            return false;
        }
    }

    private static void restoreThreshold(Database db, Statement s, HeldSetting threshold) {
        try {
            threshold.restore(s);
        } catch (SQLException e) {
            LOG.warn("The snapshot of the {} could not put checkpoint_threshold back to {}: {}", db.describe(),
                    threshold.original(), e.getMessage());
        }
    }

    private static byte[] headers(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.allocate(HEADERS);
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // read until the headers are in or the file ends
            }
            return Arrays.copyOf(buf.array(), buf.position());
        }
    }

    /**
     * Copies {@code from} to {@code to} and forces the copy to disk. The copied part is written back on a thread of
     * its own while the rest is copied, so that the final force waits only for what was copied last.
     */
    private static void copyDurably(Path from, Path to) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long size = in.size();
            long done = 0;
            try (Writeback writeback = new Writeback(out)) {
                while (done < size) {
                    long n = in.transferTo(done, Math.min(size, done + WRITEBACK_STEP) - done, out);
                    if (n <= 0) {
                        break;
                    }
                    done += n;
                    writeback.request();
                }
            }
            out.force(true);
        }
    }

    /** Forces a file being written to disk in the background, one force at a time; closing waits for the last. */
    private static final class Writeback implements AutoCloseable {
        private final FileChannel out;
        private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "quackjvm-snapshot-writeback");
            t.setDaemon(true);
            return t;
        });
        private Future<?> running;

        Writeback(FileChannel out) {
            this.out = out;
        }

        /** Starts forcing what is written so far, unless a force is still running; a failed force fails it. */
        void request() throws IOException {
            if (running == null || running.isDone()) {
                awaitRunning();
                running = thread.submit(() -> {
                    out.force(false);
                    return null;
                });
            }
        }

        /** Waits for the running force; a failed one fails the copy (a later force may not report it again). */
        @Override
        public void close() throws IOException {
            thread.shutdown();
            awaitRunning();
        }

        private void awaitRunning() throws IOException {
            if (running == null) {
                return;
            }
            try {
                running.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the snapshot was written to disk");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
        }
    }

    private static void copy(Database db, String source, Path partial, String alias) {
        String sql = "COPY FROM DATABASE " + source + " TO " + alias;
        try (PooledConnection c = db.borrow(); Statement s = c.connection().createStatement()) {
            db.running().started(s);
            try {
                // an in-memory database creates its metadata tables lazily: the copy must describe its collections
                db.collections().ensurePendingMetadata(c);
                s.execute("ATTACH '" + partial.toString().replace("'", "''") + "' AS " + alias
                        + " (ROW_GROUP_SIZE " + Database.ROW_GROUP_SIZE + ")");
                try {
                    s.execute("BEGIN TRANSACTION");
                    try {
                        s.execute(sql);
                        s.execute("DROP SCHEMA IF EXISTS " + alias + "." + VIEWS_SCHEMA + " CASCADE");
                        s.execute("COMMIT");
                    } catch (SQLException | RuntimeException e) {
                        rollbackQuietly(s);
                        throw e;
                    }
                    s.execute("CHECKPOINT " + alias);
                } finally {
                    s.execute("DETACH " + alias);
                }
            } finally {
                db.running().finished(s);
            }
        } catch (SQLException e) {
            QuackException closed = db.running().cancelledByClose("The snapshot", e);
            throw closed != null ? closed : Failures.wrap("Taking a snapshot of the " + db.describe(), sql, e);
        }
    }

    private static void move(Path from, Path to) {
        try {
            DatabaseFiles.moveIntoPlace(from, to);
        } catch (IOException e) {
            throw new QuackException("The snapshot was written but could not be moved to " + to + ": " + e
                    + ". Nothing was kept; check the directory's permissions and free space", e);
        }
    }

    private static Path wal(Path file) {
        return file.resolveSibling(file.getFileName() + ".wal");
    }

    private static void rollbackQuietly(Statement s) {
        try {
            s.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // the transaction is gone already; the failure that brought us here is the one to report
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover temporary file next to the target; it has a name that no database is opened under
        }
    }
}
