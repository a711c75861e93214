package io.quackjvm.api.internal.database;


import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open DuckDB database: the root connection every request connection is duplicated from, the pool that
 * lends them, the write policy, and the result readers. Thread-safe.
 */
public final class Database implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);


    /**
     * The name a database file is attached under. A file is not opened as the JDBC URL's database but attached
     * to an in-memory one, because only {@code ATTACH} takes a row group size (it is not a setting).
     */
    static final String CATALOG = "quackjvm";
    /** DuckDB's setting for how much a streaming result buffers ahead of its reader. */
    static final String STREAMING_BUFFER = "streaming_buffer_size";
    /** What an open result buffers ahead unless the user sets {@link #STREAMING_BUFFER}: about one chunk. */
    static final String DEFAULT_STREAMING_BUFFER = "16KB";

    /**
     * Rows per row group in a database file, instead of DuckDB's 122,880. DuckDB skips whole row groups by their
     * minima and maxima, and a prepared statement whose filter is a parameter reads the row group the value may
     * be in: measured on 1M rows in a file (raw SQL, prepared), a primary-key lookup went from 345 to 194 us, a
     * count on a value-sorted index table from 1.21 to 0.80 ms, finding the keys of a narrow range from 2.2 to
     * 0.76 ms; full scans and file size did not change measurably (400 against 420 ms, 187 against 191 MB).
     */
    static final int ROW_GROUP_SIZE = 16_384;

    /**
     * Releases a database the application dropped without {@link #close()} once it is unreachable: its connections,
     * its DuckDB instance or catalog, its spill directory and its claim on its file ({@link DatabaseResources}). One daemon
     * thread for the whole library, started with the first database.
     */
    private static final Cleaner CLEANER = Cleaner.create(r -> {
        Thread t = new Thread(r, "quackjvm-cleaner");
        t.setDaemon(true);
        return t;
    });

    private final Path file;
    private final Connection root;
    private final ConnectionPool pool;
    private final WritePolicy writePolicy;
    private final ResultReaderProvider pointReader;
    private final ResultReaderProvider bulkReader;
    private final boolean readOnly;
    private final OpenResources resources;
    /** The catalog the collections' tables are in: {@link #CATALOG}, a shared engine's, or {@code memory}. */
    private final String catalog;
    private final RunningStatements running = new RunningStatements(this::describe);
    private final DatabaseCollections collections;
    private final CachedPages pages;
    /** Everything that closing releases; also the {@link #CLEANER}'s action, so it must not refer to this. */
    private final DatabaseResources owned;
    private final Cleaner.Cleanable cleanable;
    private final Statements statements;
    /** Held while a snapshot is taken, so that two snapshots of this database do not overlap. */
    private final ReentrantLock snapshots = new ReentrantLock();
    /** Raised by a snapshot while it copies the file, so that no automatic checkpoint runs meanwhile. */
    private final HeldSetting checkpointThreshold = new HeldSetting("checkpoint_threshold");
    /** Connections lent now, for {@link #poolStats}. */
    private final java.util.concurrent.atomic.AtomicInteger inUse = new java.util.concurrent.atomic.AtomicInteger();

    Database(DatabaseResources owned, ConnectionPool pool, WritePolicy writePolicy, ResultReaderProvider pointReader,
                     ResultReaderProvider bulkReader, StatementSettings statementSettings) {
        this.owned = owned;
        this.file = owned.file;
        this.readOnly = owned.readOnly;
        this.resources = owned.open;
        this.root = owned.root;
        this.catalog = owned.catalog;
        this.pool = pool;
        this.writePolicy = writePolicy;
        this.pointReader = pointReader;
        this.bulkReader = bulkReader;
        this.collections = new DatabaseCollections(readOnly);
        this.pages = new CachedPages(this);
        this.statements = new Statements(statementSettings, running);
        this.cleanable = CLEANER.register(this, owned);
    }

    /** Opens a database; fails with a {@link QuackException} subclass naming the problem. */
    public static Database open(DatabaseSettings settings) {
        return DatabaseOpening.open(settings);
    }

    /** {@code true} when the file was opened with {@code access_mode=READ_ONLY}: every write is refused. */
    public boolean readOnly() {
        return readOnly;
    }

    /** Fails with a message naming the problem and the fix when the database is read-only. */
    public void checkWritable(String what) {
        if (readOnly) {
            throw new QuackException(what + " is refused: " + describe() + " was opened read-only "
                    + "(readOnly(), access_mode=READ_ONLY). Open it without that setting, in the one process that "
                    + "writes the file, to change it.");
        }
    }

    /** The results and transactions still open on this database. */
    public OpenResources resources() {
        return resources;
    }

    /** Whether the database lives in memory (no file). */
    public boolean isInMemory() {
        return file == null;
    }

    public String describe() {
        return owned.describe();
    }

    /** The database file, or {@code null} for an in-memory database. */
    public Path file() {
        return file;
    }

    /** Held by a snapshot of this database from start to end. */
    ReentrantLock snapshotLock() {
        return snapshots;
    }

    /** DuckDB's {@code checkpoint_threshold}, which a snapshot holds raised while it copies the file. */
    HeldSetting checkpointThreshold() {
        return checkpointThreshold;
    }

    /** The statement that checkpoints this database's catalog. */
    String checkpointSql() {
        return catalog.equals("memory") ? "CHECKPOINT" : "CHECKPOINT " + catalog;
    }

    /**
     * The catalog the collections' tables are in: {@code quackjvm} for a file, {@code memory} for an in-memory
     * database with an instance of its own, {@code quackjvm_mem_<n>} for one that is a catalog of the shared
     * engine ({@link SharedEngine}).
     */
    public String catalog() {
        return catalog;
    }

    /**
     * Runs {@code sql} (a first collection's {@code CREATE TABLE}) on the root connection, in this database's catalog.
     * A pooled connection lent for DDL would be checked for a transaction left open when handed back (two more
     * statements, a tenth of the cost of opening a small collection); the root connection is used by nothing else
     * (the pool only duplicates it).
     */
    public void executeOnRoot(String sql) throws SQLException {
        checkOpen();
        try (Statement s = root.createStatement()) {
            // the root connection of a catalog of the shared engine starts in the engine's own catalog
            s.execute(owned.engine != null ? "USE " + catalog + "; " + sql : sql);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Whether this in-memory database is a catalog of the process's shared DuckDB instance. */
    public boolean sharesEngine() {
        return owned.engine != null;
    }

    /** Borrows a connection for one request. */
    public PooledConnection borrow() {
        checkOpen();
        try {
            return new BorrowedConnection(new BorrowedConnection.Counted(pool.borrow(), inUse), this);
        } catch (SQLException e) {
            throw Failures.wrap("Borrowing a connection from " + describe(), null, e);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The pool's connection behind one {@link #borrow()} returned, for what the database's {@link OpenResources}
     * keeps (the {@link #CLEANER}'s action reaches it, so it must not keep the database reachable).
     */
    public static PooledConnection lent(PooledConnection borrowed) {
        return borrowed instanceof BorrowedConnection b ? b.lent : borrowed;
    }

    public WritePolicy writePolicy() {
        return writePolicy;
    }

    /** The reader for a call: the bulk reader for large results when one is usable, else the point reader. */
    public ResultReaderProvider reader(boolean large) {
        return large && bulkReader != null ? bulkReader : pointReader;
    }

    public void checkOpen() {
        running.checkOpen();
    }

    /** The gate of every query statement: timeouts, interrupts, admission, reports. */
    public Statements statements() {
        return statements;
    }

    /** Connections lent now, and idle in the pool. */
    public io.quackjvm.api.ConnectionPoolStats poolStats() {
        return new io.quackjvm.api.ConnectionPoolStats(inUse.get(), pool.idleCount());
    }

    /** The statements running now, which closing cancels. */
    public RunningStatements running() {
        return running;
    }

    /** What this database knows of its collections and their metadata tables. */
    public DatabaseCollections collections() {
        return collections;
    }

    /** The buffer pool's cached pages of a file database, which maintenance gives back. */
    public CachedPages pages() {
        return pages;
    }

    /** Whether {@link #close()} has run: an index of a closed database may be added to another collection. */
    public boolean isClosed() {
        return running.closed();
    }

    /** Runs one statement on a borrowed connection in auto-commit mode. */
    public void execute(String action, String sql) {
        try (PooledConnection c = borrow(); Statement s = c.connection().createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw Failures.wrap(action, sql, e);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** CHECKPOINT; when {@code strict} a failure is thrown, otherwise logged and ignored. */
    public void checkpoint(boolean strict) {
        try (PooledConnection c = borrow(); Statement s = c.connection().createStatement()) {
            s.execute(checkpointSql());
        } catch (SQLException e) {
            if (strict) {
                throw new QuackException("compact() could not checkpoint the " + describe() + ": " + e.getMessage()
                        + ". DuckDB cannot checkpoint while another write transaction is open: a write request still "
                        + "running on another thread, or an unclosed CQEngine ResultSet or iterator of a request that "
                        + "has written. Close them and call compact() again.", e);
            }
            LOG.debug("Checkpoint skipped: {}", e.getMessage());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The size of the file and its write-ahead log, or for an in-memory database the memory its DuckDB instance
     * holds (DuckDB counts memory per instance: for a catalog of the shared engine, that of every in-memory database
     * sharing it).
     */
    public long bytesUsed() {
        checkOpen();
        if (file == null) {
            try (PooledConnection c = borrow(); Statement s = c.connection().createStatement();
                 // An in-memory database has no file: what it holds is DuckDB's memory in use.
                 ResultSet rs = s.executeQuery("SELECT sum(memory_usage_bytes) FROM duckdb_memory()")) {
                return rs.next() ? rs.getLong(1) : 0L;
            } catch (SQLException e) {
                throw Failures.wrap("Measuring the size of the " + describe(), null, e);
            } finally {
                Reference.reachabilityFence(this);
            }
        }
        checkpoint(false);
        return sizeOf(file) + sizeOf(Path.of(file + ".wal"));
    }

    private static long sizeOf(Path path) {
        try {
            return Files.exists(path) ? Files.size(path) : 0L;
        } catch (IOException e) {
            return 0L;
        }
    }

    /**
     * Closes the database: releases every result and transaction still open (using such a result afterwards
     * throws {@link PersistenceClosedException}), every connection and the file, at once. Logs one warning when
     * results were left open, with where each was opened when that is recorded. Idempotent and thread-safe: the
     * first call tears the database down, and a call on another thread meanwhile waits until that is done.
     */
    @Override
    public void close() {
        closeOnce(false);
    }

    /**
     * Closes a database whose collection could not be built, as {@link #close()} does, and deletes the file and
     * whatever else of it this open created, so that a failed build leaves nothing on disk.
     */
    public void abandon() {
        closeOnce(true);
    }

    /**
     * Deletes {@code file} (a temporary database), its log and its directory once the database is closed, by
     * {@link #close()} or, for a database dropped unclosed, by the cleaner.
     */
    public void deleteAfterClose(Path file) {
        owned.temporaryFile = file;
    }

    private void closeOnce(boolean deleteCreated) {
        try {
            synchronized (owned.closing) {
                if (owned.tornDown) {
                    return;
                }
                try {
                    running.closeAndCancel();
                    owned.tearDown(deleteCreated, true);
                } finally {
                    owned.tornDown = true;
                }
            }
        } finally {
            cleanable.clean(); // torn down already: this only unregisters it
            Reference.reachabilityFence(this);
        }
    }
}
