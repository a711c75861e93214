package io.quackjvm.api.internal.database;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;

import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Live snapshots: a consistent, self-contained copy of a whole database in a new file, taken while the database
 * keeps serving reads and writes.
 *
 * <p>The copy is one DuckDB transaction that reads the database's catalog and writes a file attached next to the
 * target: {@code COPY FROM DATABASE} recreates every table, constraint, index and sequence and copies the rows the
 * transaction sees, that is exactly the writes committed before it started. Readers never wait; writers do not
 * wait either (DuckDB's transactions are multi-version), though a checkpoint the copy overlaps is put off until it
 * ends. The SQL views and decoding macros of {@code database.query} are not part of the copy: they are recreated
 * whenever a database is opened. The file is written under a temporary name in the target's directory,
 * checkpointed and detached, and only then moved to the target, so a snapshot that fails leaves nothing behind and
 * a file at the target is always complete.
 */
public final class Snapshots {

    /** The schema of the SQL views and macros; recreated on open, so not copied. */
    private static final String VIEWS_SCHEMA = "quackjvm_sql";
    private static final AtomicLong NEXT = new AtomicLong();

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
        try {
            copy(db, source, partial, alias);
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
            Reference.reachabilityFence(db);
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
