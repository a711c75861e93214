package io.quackjvm.api.internal.database;

import io.quackjvm.api.internal.collection.CollectionTable;

import io.quackjvm.api.DatabaseLockedException;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.ProviderException;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.ConnectionInitializer;
import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicy;
import io.quackjvm.api.spi.WritePolicyProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.WeakHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * One open DuckDB database: the root connection every request connection is duplicated from, the pool that
 * lends them, the write policy, and the result readers. Thread-safe.
 */
public final class Database implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    /**
     * DuckDB allows one open database object per file; a second one in the same JVM is refused by us. Keyed by
     * every identity of a file ({@link DatabaseFiles#identities}), each mapped to the file name its owner opened;
     * guarded by itself.
     */
    private static final Map<Object, Path> OPEN_FILES = new HashMap<>();

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
     * its DuckDB instance or catalog, its spill directory and its claim on its file ({@link Resources}). One daemon
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
    private volatile boolean closed;
    /** Statements running now on behalf of a caller, cancelled by {@link #close()}; guarded by itself. */
    private final java.util.Set<Statement> running = new java.util.HashSet<>();
    /** Everything that closing releases; also the {@link #CLEANER}'s action, so it must not refer to this. */
    private final Resources owned;
    private final Cleaner.Cleanable cleanable;

    private Database(Resources owned, ConnectionPool pool, WritePolicy writePolicy, ResultReaderProvider pointReader,
                     ResultReaderProvider bulkReader) {
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
        this.cleanable = CLEANER.register(this, owned);
    }

    /** Opens a database; fails with a {@link QuackException} subclass naming the problem. */
    public static Database open(DatabaseSettings settings) {
        ConnectionPoolProvider poolProvider = settings.poolProvider() != null ? settings.poolProvider()
                : Providers.load(ConnectionPoolProvider.class).named("duplicating");
        WritePolicyProvider policyProvider = settings.writePolicyProvider() != null ? settings.writePolicyProvider()
                : Providers.load(WritePolicyProvider.class).named("per-collection");
        Providers<ResultReaderProvider> readers = settings.readers().isEmpty()
                ? Providers.load(ResultReaderProvider.class)
                : Providers.load(ResultReaderProvider.class, settings.readers());
        ResultReaderProvider point = null;
        ResultReaderProvider bulk = null;
        for (ResultReaderProvider reader : readers.all()) {
            Optional<String> reason = reader.unavailableReason();
            if (reason.isPresent()) {
                readers.reject(reader, reason.get());
            } else if (!reader.bulk() && point == null) {
                point = reader;
            } else if (reader.bulk() && bulk == null) {
                bulk = reader;
            }
        }
        if (point == null) {
            throw new ProviderException("No usable row-by-row ResultReaderProvider (such as 'jdbc' from module "
                    + "io.quackjvm.reader.jdbc) was found. " + readers.describe());
        }
        Path file = settings.file() == null ? null : settings.file().toAbsolutePath().normalize();
        Properties properties = new Properties();
        properties.putAll(settings.properties());
        if (settings.memoryLimit() != null) {
            properties.setProperty("memory_limit", settings.memoryLimit());
        }
        // Read-only applies to the file, which is attached (see CATALOG); DuckDB refuses it for the in-memory root.
        boolean readOnly = removeAccessMode(properties, file);
        // Never download anything at run time: a file DuckDB does not recognise (a SQLite database, say) would
        // otherwise make it fetch and load a scanner extension.
        properties.putIfAbsent("autoinstall_known_extensions", "false");
        properties.putIfAbsent("autoload_known_extensions", "false");
        // Streaming keeps a large scan from being materialised whole inside DuckDB before Java reads it.
        properties.setProperty("jdbc_stream_results", "true");
        // How far DuckDB runs a streaming query ahead of the reader. Its default (~1 MB, in practice ~9 MB per
        // result with 2 threads) is what an open, half-read result holds in native memory; a small buffer keeps
        // it near the one chunk being read without slowing a full scan (measured in
        // benchmarks/results/reliability/abandoned-results.md). It is a per-connection setting DuckDB refuses at
        // open, so it is set on the root connection, whose duplicates inherit it.
        Object streamingBuffer = properties.remove(STREAMING_BUFFER);
        String streamingBufferSize = streamingBuffer == null ? DEFAULT_STREAMING_BUFFER : streamingBuffer.toString();
        // DuckDB 1.5.5 bakes column statistics into a prepared statement's plan, and a cached statement re-run
        // after other connections committed new rows answers from the old statistics: a cached
        // "SELECT count(*) FROM t" kept returning 300 after 40 rows were appended and committed, a cached
        // "... WHERE k = 305" found nothing, joins dropped rows and ORDER BY misplaced them (measured on
        // duplicated connections). With statistics propagation off every cached statement answered correctly, so
        // statements can be pooled (re-preparing costs ~120-200 us each).
        String disabled = properties.getProperty("disabled_optimizers", "").trim();
        if (!disabled.contains("statistics_propagation")) {
            properties.setProperty("disabled_optimizers",
                    disabled.isEmpty() ? "statistics_propagation" : disabled + ",statistics_propagation");
        }
        // DuckDB frees memory into its allocator (jemalloc on Linux), which keeps freed pages resident until
        // something purges them: after a 1M-object bulk load ~60 MB more stayed resident without the background
        // purge thread (measured RSS 216 MB -> 149 MB with it, columnar file, memoryLimit 256MB). The user can
        // still turn it off with property("allocator_background_threads", "false").
        properties.putIfAbsent("allocator_background_threads", "true");
        DriverVersion.requireSupported();
        // An in-memory database that asks for nothing of its own is a catalog of the process's shared engine:
        // no instance to start, no threads of its own (SharedEngine). A memory limit or any DuckDB property is a
        // setting of a whole instance, so a database with one gets an instance of its own.
        boolean shared = file == null && settings.memoryLimit() == null && settings.properties().isEmpty();
        Path spill = null;
        if (file == null && !shared && !properties.containsKey("temp_directory")) {
            spill = SpillDirectory.create();
            properties.setProperty("temp_directory", spill.toString());
        }
        if (file != null) {
            // Spill files next to the database, as DuckDB does for a database opened by its file name; the
            // in-memory database the file is attached to would otherwise spill into the working directory.
            properties.putIfAbsent("temp_directory", file + ".tmp");
        }
        List<Object> owned = file == null ? List.of() : reserve(file);
        // What a failed open must remove again: the files DuckDB is about to create next to nothing.
        List<Path> created = file == null ? List.of() : DatabaseFiles.absent(file);
        Resources resources = new Resources(file, readOnly, new OpenResources(settings.trackUnclosedResults()),
                spill, created, owned);
        Database db;
        try {
            if (file != null) {
                DatabaseFiles.checkIsDuckDB(file, readOnly);
            }
            if (shared) {
                SharedEngine engine = SharedEngine.get(properties);
                SharedEngine.Catalog attached = engine.attach();
                resources.shared(engine, attached.name(), attached.connection());
            } else {
                resources.root(DriverManager.getConnection("jdbc:duckdb:", properties), file == null ? "memory"
                        : CATALOG);
                try (Statement s = resources.root.createStatement()) {
                    s.execute("SET " + STREAMING_BUFFER + " = '" + streamingBufferSize.replace("'", "''") + "'");
                }
            }
            if (file != null) {
                try (Statement s = resources.root.createStatement()) {
                    s.execute("ATTACH '" + file.toString().replace("'", "''") + "' AS " + CATALOG
                            + (readOnly ? " (READ_ONLY)" : " (ROW_GROUP_SIZE " + ROW_GROUP_SIZE + ")"));
                    s.execute("USE " + CATALOG);
                }
            }
            // A duplicate of the root connection starts in the instance's in-memory database: switch it to the
            // attached file or the shared engine's catalog.
            String use = resources.catalog.equals("memory") ? null : "USE " + resources.catalog;
            ConnectionInitializer initializer = use == null ? ConnectionInitializer.NONE : c -> {
                try (Statement s = c.createStatement()) {
                    s.execute(use);
                }
            };
            resources.pool = poolProvider.create(resources.root, settings.maxPooledConnections(), initializer);
            db = new Database(resources, resources.pool, policyProvider.create(settings.serializeWrites()), point,
                    bulk);
        } catch (SQLException e) {
            resources.undoOpen(e);
            throw openFailure(file, properties, e);
        } catch (RuntimeException | Error e) {
            resources.undoOpen(e);
            throw e;
        }
        if (file != null) {
            // A file DuckDB has just created has a file key now: a hard link made to it later is the same file.
            resources.claimed(claimCreated(file, owned));
        }
        LOG.debug("Opened {} (point reader '{}', bulk reader {})", db.describe(), point.name(),
                bulk == null ? "none" : "'" + bulk.name() + "'");
        return db;
    }

    /** The exception of an open that DuckDB refused. */
    private static QuackException openFailure(Path file, Properties properties, SQLException e) {
        String message = String.valueOf(e.getMessage());
        if (file != null && Failures.isFileLocked(e)) {
            return new DatabaseLockedException(file, "Cannot open database file " + file + ": it is held by "
                    + "another process, and DuckDB allows one process per database file. DuckDB said: "
                    + message, e);
        }
        return new QuackException("Cannot open " + (file == null ? "an in-memory database" : "database file " + file)
                + " with settings " + properties.keySet() + ": " + message, e);
    }

    /**
     * Claims every identity of {@code file} for the database about to open it.
     *
     * @throws DatabaseLockedException when one of them is already open in this JVM, under any name
     */
    private static List<Object> reserve(Path file) {
        List<Object> ids = DatabaseFiles.identities(file);
        synchronized (OPEN_FILES) {
            for (Object id : ids) {
                Path holder = OPEN_FILES.get(id);
                if (holder != null) {
                    throw new DatabaseLockedException(file, "Cannot open database file " + file + ": it is already "
                            + "open in this JVM" + (holder.equals(file) ? "" : " as " + holder + " (the same file "
                            + "under another name: a hard link, a symbolic link or another spelling of its path)")
                            + " by another DuckDBPersistence or DuckDBDatabase, and opening one file twice would "
                            + "lose writes. Close that one first, or build every collection of the file from one "
                            + "DuckDBDatabase.", null);
                }
            }
            for (Object id : ids) {
                OPEN_FILES.put(id, file);
            }
        }
        return ids;
    }

    /** The identities the file gained by being created (its file key), claimed too; never throws for a name. */
    private static List<Object> claimCreated(Path file, List<Object> claimed) {
        List<Object> more = new java.util.ArrayList<>();
        try {
            for (Object id : DatabaseFiles.identities(file)) {
                if (!claimed.contains(id)) {
                    more.add(id);
                }
            }
        } catch (QuackException e) {
            LOG.debug("Could not read the identity of {}: {}", file, e.getMessage());
        }
        synchronized (OPEN_FILES) {
            for (Object id : more) {
                OPEN_FILES.putIfAbsent(id, file);
            }
        }
        return more;
    }

    private static void release(List<Object> ids) {
        synchronized (OPEN_FILES) {
            for (Object id : ids) {
                OPEN_FILES.remove(id);
            }
        }
    }

    /**
     * Takes DuckDB's {@code access_mode} out of the settings: {@code READ_ONLY} opens the file read-only.
     *
     * @return whether the file is opened read-only
     */
    private static boolean removeAccessMode(Properties properties, Path file) {
        String mode = null;
        for (String key : properties.stringPropertyNames()) {
            if (key.equalsIgnoreCase("access_mode")) {
                mode = properties.getProperty(key);
                properties.remove(key);
            }
        }
        if (mode == null || mode.equalsIgnoreCase("automatic") || mode.equalsIgnoreCase("read_write")) {
            return false;
        }
        if (!mode.equalsIgnoreCase("read_only")) {
            throw new IllegalArgumentException("property(\"access_mode\", \"" + mode + "\") is not a DuckDB access "
                    + "mode; use READ_ONLY, READ_WRITE or AUTOMATIC");
        }
        if (file == null) {
            throw new IllegalArgumentException("property(\"access_mode\", \"READ_ONLY\") needs a database file: an "
                    + "in-memory database starts empty, so a read-only one could never hold anything. Add .file(path)");
        }
        return true;
    }

    /** {@code true} when the file was opened with {@code access_mode=READ_ONLY}: every write is refused. */
    public boolean readOnly() {
        return readOnly;
    }

    /** Fails with a message naming the problem and the fix when the database is read-only. */
    public void checkWritable(String what) {
        if (readOnly) {
            throw new QuackException(what + " is refused: " + describe() + " was opened read-only "
                    + "(property access_mode=READ_ONLY). Open it without that property, in the one process that "
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

    /**
     * The catalog the collections' tables are in: {@code quackjvm} for a file, {@code memory} for an in-memory
     * database with an instance of its own, {@code quackjvm_mem_<n>} for one that is a catalog of the shared
     * engine ({@link SharedEngine}).
     */
    public String catalog() {
        return catalog;
    }

    /** Whether the metadata tables are known to be there, in their current shape; see {@link #metadataReady(boolean)}. */
    public boolean metadataReady() {
        return metadataReady;
    }

    /** Records that the metadata tables were created or checked ({@code CollectionTable.create}). */
    public void metadataReady(boolean ready) {
        metadataReady = ready;
    }

    /**
     * The collections of this database by the persistence built on each, weakly held, so that a query naming a
     * collection ({@code existsIn}) finds its table without the engine knowing the persistence's class.
     */
    private final Map<Object, CollectionTable<?, ?>> byPersistence = new WeakHashMap<>();

    /** Records that {@code persistence} stores its objects in {@code table} of this database. */
    public synchronized void register(Object persistence, CollectionTable<?, ?> table) {
        byPersistence.put(persistence, table);
    }

    /** The table of a persistence {@link #register registered} here, or {@code null}. */
    public synchronized CollectionTable<?, ?> tableOf(Object persistence) {
        return persistence == null ? null : byPersistence.get(persistence);
    }

    /**
     * {@code true} once: for the first collection created in an in-memory database whose metadata tables do not
     * exist yet ({@link CollectionSchema#createFirstInMemory}). Collections of one database are created one at a
     * time ({@code DuckDBDatabase} builds them under its lock).
     */
    public synchronized boolean firstCollection() {
        if (metadataReady || !pendingMetadata.isEmpty() || readOnly) {
            return false;
        }
        return true;
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

    /** The metadata row of a collection created before the metadata tables, written by {@link #ensureMetadata}. */
    public synchronized void metadataPending(String insert) {
        pendingMetadata.add(insert);
    }

    /**
     * Creates the metadata tables of an in-memory database ({@code ddl}) with the rows of the collections created
     * before them, in one transaction; does nothing once done.
     */
    public synchronized void ensureMetadata(PooledConnection c, List<String> ddl) throws SQLException {
        if (metadataReady) {
            return;
        }
        StringBuilder sql = new StringBuilder("BEGIN TRANSACTION; ");
        for (String s : ddl) {
            sql.append(s).append("; ");
        }
        for (String s : pendingMetadata) {
            sql.append(s).append("; ");
        }
        sql.append("COMMIT");
        try (Statement s = c.connection().createStatement()) {
            s.execute(sql.toString());
        }
        pendingMetadata.clear();
        metadataReady = true;
    }

    private volatile boolean metadataReady;
    /** Guarded by {@code this}. */
    private final List<String> pendingMetadata = new java.util.ArrayList<>();

    /** Whether this in-memory database is a catalog of the process's shared DuckDB instance. */
    public boolean sharesEngine() {
        return owned.engine != null;
    }

    /** Borrows a connection for one request. */
    public PooledConnection borrow() {
        checkOpen();
        try {
            return new Borrowed(pool.borrow(), this);
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
        return borrowed instanceof Borrowed b ? b.lent : borrowed;
    }

    /**
     * A borrowed connection that keeps its database reachable for as long as it is in use: the {@link #CLEANER}
     * must never release a database while one of its statements runs, even when the caller's last reference to the
     * collection was the one whose method is running (the JIT may drop it before the method returns).
     */
    private static final class Borrowed implements PooledConnection {
        private final PooledConnection lent;
        @SuppressWarnings({"unused", "FieldCanBeLocal"})
        private final Database keepAlive;

        Borrowed(PooledConnection lent, Database keepAlive) {
            this.lent = lent;
            this.keepAlive = keepAlive;
        }

        @Override
        public Connection connection() {
            return lent.connection();
        }

        @Override
        public PreparedStatement prepare(String sql) throws SQLException {
            return lent.prepare(sql);
        }

        @Override
        public void recycle(PreparedStatement statement) {
            lent.recycle(statement);
        }

        @Override
        public void begin() throws SQLException {
            lent.begin();
        }

        @Override
        public void commit() throws SQLException {
            lent.commit();
        }

        @Override
        public void rollback() throws SQLException {
            lent.rollback();
        }

        @Override
        public void close() {
            lent.close();
        }
    }

    public WritePolicy writePolicy() {
        return writePolicy;
    }

    /** The reader for a call: the bulk reader for large results when one is usable, else the point reader. */
    public ResultReaderProvider reader(boolean large) {
        return large && bulkReader != null ? bulkReader : pointReader;
    }

    /**
     * Gives back the buffer pool's cached pages of a file database: DuckDB evicts unpinned blocks when its
     * {@code memory_limit} is lowered, so the limit is lowered to {@link #RELEASE_FLOOR} for a moment and put back.
     * Those pages are re-read from the file when needed. After a 1M-object load and {@code optimize()} with
     * {@code memoryLimit("256MB")} this took the process from 200 MB to 114 MB resident
     * (results/memory-phases/). In-memory databases keep their blocks (evicting them would spill). A statement
     * of another thread that needs more than the floor during that moment may fail with DuckDB's out-of-memory
     * error, so it runs only where the caller asked for maintenance ({@code optimize()}, {@code compact()}).
     */
    public synchronized void releaseMemory() {
        if (file == null || closed) {
            return;
        }
        if (resources.count() > 0) {
            // A result still streaming or a write still open could need more than the floor for its next
            // chunk and fail with an out-of-memory error; the pages stay cached until the next maintenance.
            LOG.debug("Not releasing cached pages of {}: {} result(s) or write(s) open", describe(), resources.count());
            return;
        }
        try (PooledConnection c = borrow(); Statement s = c.connection().createStatement()) {
            String limit = restoreLimit;
            if (limit == null) {
                // Read once and reused: DuckDB reports the limit rounded (256MB as "244.1 MiB"), so reading it
                // back every time would let it drift down by a rounding step per call.
                try (ResultSet rs = s.executeQuery("SELECT current_setting('memory_limit')")) {
                    if (!rs.next()) {
                        return;
                    }
                    limit = rs.getString(1);
                }
                restoreLimit = limit;
            }
            try {
                s.execute("SET memory_limit = '" + RELEASE_FLOOR + "'");
            } finally {
                s.execute("SET memory_limit = '" + limit.replace("'", "''") + "'");
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug("Releasing cached pages of {} failed: {}", describe(), e.getMessage());
        }
    }

    /** The memory limit {@link #releaseMemory()} puts back (the one the database was opened with). */
    private String restoreLimit;

    /** The memory limit {@link #releaseMemory()} lowers to for a moment. */
    static final String RELEASE_FLOOR = "16MB";

    public void checkOpen() {
        if (closed) {
            throw new PersistenceClosedException("The " + describe() + " has been closed; open a new persistence "
                    + "to use it again");
        }
    }

    /**
     * Registers a statement about to run, so that {@link #close()} cancels it and waits for {@link #finished}.
     *
     * @throws PersistenceClosedException when the database is closed
     */
    public void started(Statement statement) {
        synchronized (running) {
            checkOpen();
            running.add(statement);
        }
    }

    /** Ends what {@link #started} registered, once the statement and its connection are done with. */
    public void finished(Statement statement) {
        synchronized (running) {
            if (running.remove(statement)) {
                running.notifyAll();
            }
        }
    }

    /** The exception of a statement that {@link #close()} cancelled, or {@code null} when the database is open. */
    public PersistenceClosedException cancelledByClose(String what, Throwable cause) {
        if (!closed) {
            return null;
        }
        PersistenceClosedException e = new PersistenceClosedException(what + " was cancelled: the " + describe()
                + " was closed while it ran. Close the database only after its queries and bulk loads have ended.");
        e.initCause(cause);
        return e;
    }

    /** How long {@link #close()} waits for cancelled statements to stop. */
    private static final long CANCEL_WAIT_MILLIS = 30_000;

    /** Cancels the running statements and waits, bounded, until their callers are done with them. */
    private void cancelRunning() {
        synchronized (running) {
            for (Statement s : running) {
                try {
                    s.cancel();
                } catch (SQLException e) {
                    LOG.debug("Cancelling a statement of {} failed: {}", describe(), e.getMessage());
                }
            }
            long deadline = System.currentTimeMillis() + CANCEL_WAIT_MILLIS;
            while (!running.isEmpty()) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    LOG.warn("Closing {}: {} cancelled statement(s) did not stop within {} ms", describe(),
                            running.size(), CANCEL_WAIT_MILLIS);
                    return;
                }
                try {
                    running.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Whether {@link #close()} has run: an index of a closed database may be added to another collection. */
    public boolean isClosed() {
        return closed;
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
            s.execute(catalog.equals("memory") ? "CHECKPOINT" : "CHECKPOINT " + catalog);
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
                    synchronized (running) {
                        closed = true;
                    }
                    cancelRunning();
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

    /**
     * What one open database holds that must be released: the connections, the DuckDB instance (its root
     * connection; the instance ends with its last connection) or the shared engine's catalog, the results and
     * transactions still open, the spill directory, the claim on the file and what the open created. It is the
     * {@link #CLEANER}'s action for a database dropped without {@link #close()}, so it must not refer to the
     * {@link Database}, nor to anything that does (the pool is created by a provider given the root connection
     * only; what {@link OpenResources} holds refers to connections, never to the database). Thread-safe: teardown
     * runs once, under {@link #closing}.
     */
    private static final class Resources implements Runnable {
        final Path file;
        final boolean readOnly;
        final OpenResources open;
        final Path spillDirectory;
        final List<Path> created;
        /** The identities of the file this database owns in {@link #OPEN_FILES}; empty in memory. */
        final List<Object> owned = new java.util.ArrayList<>();
        Connection root;
        /** The catalog of the collections' tables: {@link #CATALOG}, the shared engine's, or {@code memory}. */
        String catalog;
        /** The engine whose catalog this database is, or {@code null} for an instance of its own. */
        SharedEngine engine;
        ConnectionPool pool;
        volatile Path temporaryFile;
        /** Held by the one teardown, so that a close() on another thread waits until it is done. */
        final Object closing = new Object();
        /** Guarded by {@link #closing}. */
        boolean tornDown;

        Resources(Path file, boolean readOnly, OpenResources open, Path spillDirectory, List<Path> created,
                  List<Object> owned) {
            this.file = file;
            this.readOnly = readOnly;
            this.open = open;
            this.spillDirectory = spillDirectory;
            this.created = created;
            this.owned.addAll(owned);
        }

        void root(Connection root, String catalog) {
            this.root = root;
            this.catalog = catalog;
        }

        void shared(SharedEngine engine, String catalog, Connection root) {
            this.engine = engine;
            this.catalog = catalog;
            this.root = root;
        }

        void claimed(List<Object> more) {
            synchronized (closing) {
                owned.addAll(more);
            }
        }

        String describe() {
            return file == null ? "in-memory DuckDB database" : "DuckDB database " + file;
        }

        /** The cleaner's entry point: the database became unreachable without being closed. */
        @Override
        public void run() {
            synchronized (closing) {
                if (tornDown) {
                    return;
                }
                tornDown = true;
                try {
                    LOG.debug("The {} was dropped without close(); releasing it", describe());
                    tearDown(false, false);
                } catch (RuntimeException | Error e) {
                    LOG.warn("Releasing the {}, dropped without close(), failed: {}", describe(), e.toString());
                }
            }
        }

        /** Closes everything once; the claim on the file is given up last. */
        void tearDown(boolean deleteCreated, boolean warnOpen) {
            List<Throwable> left = open.releaseAll();
            if (!left.isEmpty() && warnOpen) {
                QuackException where = null;
                if (left.get(0) != null) {
                    where = new QuackException(left.size() + " unclosed result(s) of the " + describe());
                    for (Throwable origin : left) {
                        where.addSuppressed(origin);
                    }
                }
                LOG.warn("Closed the {} with {} result(s) or iterator(s) still open; they were released and now fail "
                        + "if used. Close every ResultSet and iterator you open (try-with-resources){}", describe(),
                        left.size(), where == null ? "; build with trackUnclosedResults(true) to log where each was "
                                + "opened" : "", where);
            }
            if (file != null && !readOnly && !deleteCreated) {
                // Fold the log into the file: a file closed cleanly has no log, so any process can open it
                // read-only (DuckDB cannot replay some logs read-only, one that creates an index for one).
                try (Statement s = root.createStatement()) {
                    s.execute("CHECKPOINT " + CATALOG);
                } catch (SQLException e) {
                    LOG.warn("Closing the {}: the last checkpoint failed, so its log stays next to the file and is "
                            + "replayed when the file is next opened read-write: {}", describe(), e.getMessage());
                }
            }
            RuntimeException poolFailure = closeConnections();
            if (deleteCreated) {
                DatabaseFiles.deleteCreated(created);
            }
            deleteTemporaryFile();
            release(owned);
            LOG.debug("Closed {}", describe());
            if (poolFailure != null) {
                throw new QuackException("Closing the " + describe() + ": its connection pool failed to close ("
                        + poolFailure + "); the database was closed and its file released all the same", poolFailure);
            }
        }

        /** Undoes a failed {@link #open}: closes what it opened, deletes what it created, then gives up the file. */
        void undoOpen(Throwable failure) {
            synchronized (closing) {
                tornDown = true;
                RuntimeException poolFailure = closeConnections();
                if (poolFailure != null) {
                    failure.addSuppressed(poolFailure);
                }
                DatabaseFiles.deleteCreated(created);
                release(owned);
            }
        }

        /**
         * Closes the pool and the root connection (an instance of its own ends with its last connection), detaches
         * the shared engine's catalog, and deletes the spill directory; returns the pool's failure, if any.
         */
        private RuntimeException closeConnections() {
            RuntimeException poolFailure = null;
            try {
                if (pool != null) {
                    pool.close();
                }
            } catch (RuntimeException e) {
                poolFailure = e;
            }
            try {
                if (root != null) {
                    root.close();
                }
            } catch (SQLException | RuntimeException e) {
                LOG.warn("Closing {} failed: {}", describe(), e.getMessage());
            }
            if (engine != null) {
                engine.detach(catalog);
            }
            SpillDirectory.delete(spillDirectory);
            return poolFailure;
        }

        /** Deletes a temporary database ({@code onPrimaryKeyInTempFile}); a failure is logged, not thrown. */
        private void deleteTemporaryFile() {
            Path temp = temporaryFile;
            if (temp == null) {
                return;
            }
            try {
                Files.deleteIfExists(Path.of(temp + ".wal"));
                Files.deleteIfExists(temp);
                Files.deleteIfExists(temp.getParent());
            } catch (IOException e) {
                LOG.debug("Could not delete the temporary database {}: {}", temp, e.getMessage());
            }
        }
    }
}
