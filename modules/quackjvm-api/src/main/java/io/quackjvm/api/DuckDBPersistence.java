package io.quackjvm.api;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.index.Index;
import com.googlecode.cqengine.index.sqlite.SQLiteIdentityIndex;
import com.googlecode.cqengine.index.sqlite.SQLitePersistence;
import com.googlecode.cqengine.persistence.support.ObjectStore;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.collection.Compactor;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.DatabaseOptions;
import io.quackjvm.api.internal.index.DuckDBIdentityIndex;
import io.quackjvm.api.internal.collection.DuckDBObjectStore;
import io.quackjvm.api.internal.collection.KeyType;
import io.quackjvm.api.internal.database.Providers;
import io.quackjvm.api.internal.database.Snapshots;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.AllowedClasses;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicyProvider;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.sql.Connection;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A CQEngine {@link com.googlecode.cqengine.persistence.Persistence} that keeps a collection's objects in DuckDB
 * instead of on the Java heap.
 *
 * <pre>{@code
 * IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(
 *         DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("256MB").build());
 * }</pre>
 *
 * <p>Every CQEngine collection type works on it ({@code ConcurrentIndexedCollection},
 * {@code ObjectLockingIndexedCollection}, {@code TransactionalIndexedCollection}). Objects are identified by
 * their primary key: adding an object whose key is stored replaces the stored object unless the two are
 * {@code equals}; {@code contains} and {@code remove} compare with {@code equals}, as an on-heap collection does.
 * A query on the primary key is one SQL lookup, never a scan.
 *
 * <p>The primary key may be a {@code String}, {@code Character}, {@code UUID}, {@code Long}, {@code Integer},
 * {@code Short}, {@code Byte}, {@code Double}, {@code Float}, {@code Boolean}, {@code BigDecimal},
 * {@code BigInteger}, {@code java.util.Date}, {@code LocalDate}, {@code LocalTime}, {@code LocalDateTime},
 * {@code Instant} or an enum. Keys are stored in an encoding that keeps Java's {@code equals} and
 * {@code compareTo} exactly (see {@link io.quackjvm.api.spi.ValueType}), so two keys Java tells apart never collide
 * and range queries and ordering on the key give the answers of an on-heap collection. Other key types are refused
 * by {@link Builder#build()}.
 *
 * <p>Thread-safe. Reads never wait for writes; writes to one collection wait for each other unless
 * {@link Builder#serializeWrites(boolean) serializeWrites(false)}. Every write request (one {@code add},
 * {@code addAll}, {@code update}, ...) is one DuckDB transaction: if any part fails, none of it is stored.
 * Call {@link #close()} when done; later calls throw {@link PersistenceClosedException}.
 *
 * @param <O> the type of the stored objects
 * @param <A> the type of the primary key
 */
public final class DuckDBPersistence<O, A extends Comparable<A>> implements SQLitePersistence<O, A>, Closeable {

    private final SimpleAttribute<O, A> primaryKey;
    private final Database database;
    private final CollectionTable<O, A> table;
    private final Path deleteOnClose;
    /** The shared database this collection belongs to, or {@code null} when it has a database of its own. */
    private final DuckDBDatabase owner;

    private DuckDBPersistence(SimpleAttribute<O, A> primaryKey, Database database, CollectionTable<O, A> table,
                              Path deleteOnClose, DuckDBDatabase owner) {
        this.primaryKey = primaryKey;
        this.database = database;
        this.table = table;
        this.deleteOnClose = deleteOnClose;
        this.owner = owner;
        database.collections().register(this, table);
    }

    /** The collection's engine; for the database API. */
    CollectionTable<O, A> table() {
        return table;
    }

    /** The shared database this collection was built in, or {@code null} when it has a database of its own. */
    DuckDBDatabase owner() {
        return owner;
    }

    /** An in-memory persistence with every setting at its default; mirrors {@code OffHeapPersistence.onPrimaryKey}. */
    public static <O, A extends Comparable<A>> DuckDBPersistence<O, A> onPrimaryKey(SimpleAttribute<O, A> primaryKey) {
        return builder(primaryKey).build();
    }

    /** A persistence in {@code file} (created if absent); mirrors {@code DiskPersistence.onPrimaryKeyInFile}. */
    public static <O, A extends Comparable<A>> DuckDBPersistence<O, A> onPrimaryKeyInFile(
            SimpleAttribute<O, A> primaryKey, File file) {
        return builder(primaryKey).file(file).build();
    }

    /**
     * A persistence in a new temporary file, deleted on {@link #close()}; mirrors
     * {@code DiskPersistence.onPrimaryKey}.
     */
    public static <O, A extends Comparable<A>> DuckDBPersistence<O, A> onPrimaryKeyInTempFile(
            SimpleAttribute<O, A> primaryKey) {
        Path dir;
        try {
            dir = Files.createTempDirectory("quackjvm_");
        } catch (IOException e) {
            throw new QuackException("Cannot create a temporary database file under "
                    + System.getProperty("java.io.tmpdir") + ": " + e, e);
        }
        Path file = dir.resolve("collection.duckdb");
        Builder<O, A> builder = builder(primaryKey).file(file);
        builder.deleteOnClose = file;
        try {
            return builder.build();
        } catch (RuntimeException | Error e) {
            // The failed build deleted what DuckDB created in it.
            try {
                Files.deleteIfExists(dir);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** A builder for every setting; see the docs' tuning chapter. */
    public static <O, A extends Comparable<A>> Builder<O, A> builder(SimpleAttribute<O, A> primaryKey) {
        return new Builder<>(primaryKey);
    }

    // ------------------------------------------------------------------ CQEngine Persistence

    @Override
    public ObjectStore<O> createObjectStore() {
        table.checkOpen();
        return new DuckDBObjectStore<>(this, table);
    }

    @Override
    public SQLiteIdentityIndex<A, O> createIdentityIndex() {
        return new DuckDBIdentityIndex<>(table);
    }

    /** {@code true} for the indexes that live in this persistence's database. */
    @Override
    public boolean supportsIndex(Index<O> index) {
        return index instanceof DuckDBIdentityIndex || index instanceof DuckDBIndex;
    }

    @Override
    public void openRequestScopeResources(QueryOptions queryOptions) {
        table.statements().scopes().open(queryOptions);
    }

    @Override
    public void closeRequestScopeResources(QueryOptions queryOptions) {
        table.statements().scopes().close(queryOptions);
    }

    @Override
    public SimpleAttribute<O, A> getPrimaryKeyAttribute() {
        return primaryKey;
    }

    /**
     * Not supported: CQEngine's SQLite indexes ({@code DiskIndex}, {@code OffHeapIndex}) cannot live in DuckDB.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public Connection getConnection(Index<?> index, QueryOptions queryOptions) {
        throw new UnsupportedOperationException("CQEngine's SQLite indexes (" + index.getClass().getSimpleName()
                + ") cannot be stored in DuckDB; index DuckDB collections with on-heap indexes instead");
    }

    // ------------------------------------------------------------------ storage management

    /**
     * The size of the database file including its write-ahead log (for in-memory: of its blocks), in bytes. For a
     * collection of a shared {@link DuckDBDatabase} that is the whole database, every collection included.
     */
    @Override
    public long getBytesUsed() {
        table.checkOpen();
        return database.bytesUsed();
    }

    /**
     * Writes a consistent copy of the database this collection is in (for a collection of a
     * {@link DuckDBDatabase}, the whole database) into a new database file at {@code target}, while the
     * application keeps reading and writing: see {@link DuckDBDatabase#snapshot(Path)}.
     *
     * @throws QuackException             when {@code target} exists or its directory does not, or the copy fails
     * @throws PersistenceClosedException when the collection is closed
     */
    public void snapshot(Path target) {
        Objects.requireNonNull(target, "target");
        table.checkOpen();
        Snapshots.take(database, target);
    }

    /**
     * An export of this collection to Parquet files; see {@link ParquetExport} and docs/interop.md.
     *
     * @throws PersistenceClosedException when the collection is closed
     */
    public ParquetExport<O> export() {
        table.checkOpen();
        return new ParquetExport<>(table, new io.quackjvm.api.internal.answer.SqlViews(database));
    }

    /**
     * Reclaims the space of deleted rows: rewrites this collection's object table and each of its index tables
     * (index tables come out sorted by value, as after {@link #optimize()}) in one transaction, then runs a DuckDB
     * CHECKPOINT, which flushes the write-ahead log into the file and frees the old tables' blocks for reuse.
     * A checkpoint alone does not do it: DuckDB keeps the deleted rows of a table with an index, and the object
     * table has one (its primary key).
     *
     * <p>A maintenance operation: it writes a second copy of the collection (and needs room for it) while holding
     * the collection's write lock; readers are not blocked and an open result keeps reading what it started with.
     * A crash during it loses nothing: before its commit the old tables stand, after it the new ones. Freed blocks
     * inside the file are reused by later writes rather than returned at once, so a file compacted regularly
     * stays within a small multiple of a freshly written one. If a result opened before the call is still open,
     * DuckDB refuses the checkpoint; the rewrite stands and the next checkpoint (the next {@code compact()}, or
     * {@code close()}) frees the space. Cost and measurements: docs/tuning.md.
     *
     * @throws QuackException when another write to this collection is still open after two seconds (a write
     *                        running on another thread, or an unclosed ResultSet of a request that wrote), naming
     *                        the cause; nothing has been changed then
     */
    @Override
    public void compact() {
        table.checkOpen();
        database.checkWritable("compact()");
        Compactor.compact(table);
        database.pages().release();
    }

    /**
     * Does nothing: kept for source compatibility with CQEngine's SQLite persistence. DuckDB grows its own file
     * and cannot pre-allocate it.
     */
    @Override
    public void expand(long numBytes) {
        table.checkOpen();
    }

    /**
     * Rewrites every index table of this collection sorted by value, so that DuckDB's per-block minima and maxima
     * let it skip blocks (objects arrive unsorted, so without this an equality or range query scans the whole
     * index). Then checkpoints, as housekeeping: a checkpoint blocked by an open result set is skipped, not thrown.
     * A maintenance operation: it needs room for a second copy of the largest index table while it runs, and
     * objects added later land unsorted at the end.
     */
    public void optimize() {
        table.checkOpen();
        database.checkWritable("optimize()");
        table.indexes().optimize();
        database.checkpoint(false);
        database.pages().release();
    }

    /**
     * A writer that streams many objects into this collection in one transaction, with the effect of one
     * {@code addAll} of them all (stored keys replaced, the last object of a repeated key wins): see
     * {@link DuckDBBulkWriter}.
     *
     * @throws PersistenceClosedException when this persistence is closed
     * @throws QuackException             when the database is read-only
     */
    public DuckDBBulkWriter<O> bulkWriter() {
        return new DuckDBBulkWriter<>(table.bulkLoad(false));
    }

    /**
     * A bulk writer for objects whose keys are all new (the promise of {@link DuckDBFlags#BULK_IMPORT}): it skips
     * looking for stored objects to replace, and a key that is stored or comes twice in the load fails the whole
     * load with a {@link QuackException} naming it. See {@link DuckDBBulkWriter}.
     *
     * @throws PersistenceClosedException when this persistence is closed
     * @throws QuackException             when the database is read-only
     */
    public DuckDBBulkWriter<O> bulkImporter() {
        return new DuckDBBulkWriter<>(table.bulkLoad(true));
    }

    /** Refreshes DuckDB's planner statistics (ANALYZE). */
    public void analyze() {
        table.checkOpen();
        database.execute("Analyzing", "ANALYZE");
    }

    /**
     * What the object cache has done since this persistence was opened: hits, misses, evictions, its size and
     * bound. All zero when the cache is off (the default; see {@link Builder#objectCacheSize(int)}).
     */
    public ObjectCacheStats cacheStats() {
        return table.cache().stats();
    }

    /**
     * Adds a listener that hears every statement, write, write-lock wait and write conflict of this persistence's
     * database from now on, for metrics (for a collection of a {@link DuckDBDatabase}: of every collection of
     * it). See {@link OperationListener}.
     */
    public void addListener(OperationListener listener) {
        database.statements().addListener(listener);
    }

    /** Removes a listener added with {@link #addListener}; does nothing when it was not added. */
    public void removeListener(OperationListener listener) {
        database.statements().removeListener(listener);
    }

    /** The connections of this persistence's database pool: lent now, and idle. */
    public ConnectionPoolStats poolStats() {
        return database.poolStats();
    }

    /** The name of the table that holds the objects. */
    public String getTableName() {
        return table.name();
    }

    /**
     * Whether this collection, or the database it belongs to, is closed. Cheap and never throws: for health checks
     * and gauges that must not touch a closed collection.
     */
    public boolean isClosed() {
        return table.isClosed();
    }

    /**
     * Closes the database and releases its file at once, so that this JVM or another can open it again.
     * Idempotent and thread-safe (a call made while another thread is closing returns once that one is done); any
     * later use throws {@link PersistenceClosedException}, and so does reading a result set or
     * iterator that was still open (close() releases them, and logs one warning saying how many there were; see
     * {@link Builder#trackUnclosedResults(boolean)} to find where they were opened). A write still running on
     * another thread is rolled back.
     *
     * <p>For a collection of a shared {@link DuckDBDatabase} this closes the collection alone: its later use
     * throws {@link PersistenceClosedException}, the database and its other collections stay open, and the name
     * may be built again. Its data stays in the database. Close the database to release the file.
     *
     * @throws QuackException when the connection pool failed to close, or a temporary file (see
     *                        {@link #onPrimaryKeyInTempFile}) could not be deleted; the database is closed and its
     *                        file released all the same
     */
    @Override
    public void close() {
        if (owner != null) {
            table.close();
            owner.unregister(table.name(), this);
            return;
        }
        try {
            database.close();
        } finally {
            table.cache().clear();
            deleteTemporaryFile();
        }
    }

    private void deleteTemporaryFile() {
        if (deleteOnClose != null) {
            try {
                Files.deleteIfExists(Path.of(deleteOnClose + ".wal"));
                Files.deleteIfExists(deleteOnClose);
                Files.deleteIfExists(deleteOnClose.getParent());
            } catch (IOException e) {
                throw new QuackException("Cannot delete temporary database " + deleteOnClose + " (" + e + "); the "
                        + "database was closed and its file released, but the file or its directory is left on disk",
                        e);
            }
        }
    }

    @Override
    public String toString() {
        return "DuckDBPersistence{" + table.name() + " in " + database.describe() + "}";
    }

    /**
     * Builds a {@link DuckDBPersistence} with a database of its own: the settings of {@link DatabaseConfig} for
     * the database and of {@link CollectionConfig} for the collection. Not thread-safe.
     */
    public static final class Builder<O, A extends Comparable<A>>
            implements DatabaseConfig<Builder<O, A>>, CollectionConfig<O, Builder<O, A>> {

        private final SimpleAttribute<O, A> primaryKey;
        private final DatabaseOptions options = new DatabaseOptions();
        private Integer appenderThreshold;
        private Integer stagingChunkRows;
        private Integer objectCacheSize;
        private String name;
        private ObjectLayoutProvider layout;
        private String layoutName;
        private ColumnarLayout<?> columnarLayout;
        private Path deleteOnClose;
        /** The shared database the collection is built in, or {@code null} for a database of its own. */
        private DuckDBDatabase shared;
        private ProgressListener progressListener;
        private Class<?>[] allowedClasses;
        private String[] allowedPackages;

        private Builder(SimpleAttribute<O, A> primaryKey) {
            this.primaryKey = Objects.requireNonNull(primaryKey, "primaryKey");
        }

        /** A builder of a collection in {@code database}: only the per-collection options apply. */
        static <O, A extends Comparable<A>> Builder<O, A> in(DuckDBDatabase database, SimpleAttribute<O, A> pk) {
            Builder<O, A> builder = new Builder<>(pk);
            builder.shared = Objects.requireNonNull(database, "database");
            return builder;
        }

        private static void once(boolean alreadySet, String option) {
            DatabaseOptions.once(alreadySet, option);
        }

        @Override
        public Builder<O, A> inMemory() {
            options.inMemory();
            return this;
        }

        @Override
        public Builder<O, A> file(Path file) {
            options.file(file);
            return this;
        }

        @Override
        public Builder<O, A> readOnly() {
            options.readOnly();
            return this;
        }

        @Override
        public Builder<O, A> memoryLimit(String limit) {
            options.memoryLimit(limit);
            return this;
        }

        @Override
        public Builder<O, A> property(String key, String value) {
            options.property(key, value);
            return this;
        }

        @Override
        public Builder<O, A> properties(Map<String, String> settings) {
            options.properties(settings);
            return this;
        }

        @Override
        public Builder<O, A> maxPooledConnections(int max) {
            options.maxPooledConnections(max);
            return this;
        }

        @Override
        public Builder<O, A> serializeWrites(boolean serialize) {
            options.serializeWrites(serialize);
            return this;
        }

        @Override
        public Builder<O, A> appenderThreshold(int rows) {
            once(appenderThreshold != null, "appenderThreshold");
            if (rows < 1) {
                throw new IllegalArgumentException("appenderThreshold(" + rows + ") must be at least 1");
            }
            this.appenderThreshold = rows;
            return this;
        }

        @Override
        public Builder<O, A> stagingChunkRows(int rows) {
            once(stagingChunkRows != null, "stagingChunkRows");
            if (rows < 1) {
                throw new IllegalArgumentException("stagingChunkRows(" + rows + ") must be at least 1");
            }
            this.stagingChunkRows = rows;
            return this;
        }

        @Override
        public Builder<O, A> objectCacheSize(int objects) {
            once(objectCacheSize != null, "objectCacheSize");
            if (objects < 0) {
                throw new IllegalArgumentException("objectCacheSize(" + objects + ") must be zero (no cache) or more");
            }
            this.objectCacheSize = objects;
            return this;
        }

        @Override
        public Builder<O, A> name(String tableName) {
            once(name != null, "name");
            if (tableName == null || !tableName.matches("[A-Za-z][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("name(\"" + tableName + "\") must start with a letter and "
                        + "contain only letters, digits and underscores");
            }
            this.name = tableName;
            return this;
        }

        @Override
        public Builder<O, A> allowClasses(Class<?>... classes) {
            once(allowedClasses != null, "allowClasses");
            this.allowedClasses = classes.clone();
            AllowedClasses.of(allowedClasses, new String[0]);
            return this;
        }

        @Override
        public Builder<O, A> allowPackages(String... packages) {
            once(allowedPackages != null, "allowPackages");
            this.allowedPackages = packages.clone();
            AllowedClasses.of(new Class<?>[0], allowedPackages);
            return this;
        }

        @Override
        public Builder<O, A> layout(ObjectLayoutProvider provider) {
            once(layout != null || layoutName != null, "The layout");
            this.layout = Objects.requireNonNull(provider, "layout provider");
            return this;
        }

        @Override
        public Builder<O, A> layout(String providerName) {
            once(layout != null || layoutName != null, "The layout");
            this.layoutName = Objects.requireNonNull(providerName, "layout name");
            return this;
        }

        @Override
        public Builder<O, A> columnarLayout(ColumnarLayout<? super O> columnarLayout) {
            once(this.columnarLayout != null, "columnarLayout");
            Objects.requireNonNull(columnarLayout, "columnarLayout");
            Class<O> type = primaryKey.getObjectType();
            if (!columnarLayout.objectType().isAssignableFrom(type)) {
                throw new IllegalArgumentException("columnarLayout describes " + columnarLayout.objectType().getName()
                        + " but the primary key " + primaryKey.getAttributeName() + " belongs to " + type.getName());
            }
            this.columnarLayout = columnarLayout;
            return this;
        }

        @Override
        public Builder<O, A> trackUnclosedResults(boolean track) {
            options.trackUnclosedResults(track);
            return this;
        }

        @Override
        public Builder<O, A> progressListener(ProgressListener listener) {
            once(progressListener != null, "progressListener");
            this.progressListener = Objects.requireNonNull(listener, "progressListener");
            return this;
        }

        @Override
        public Builder<O, A> queryTimeout(Duration timeout) {
            options.queryTimeout(timeout);
            return this;
        }

        @Override
        public Builder<O, A> slowStatementThreshold(Duration threshold) {
            options.slowStatementThreshold(threshold);
            return this;
        }

        @Override
        public Builder<O, A> maxConcurrentQueries(int max) {
            options.maxConcurrentQueries(max);
            return this;
        }

        @Override
        public Builder<O, A> admissionTimeout(Duration timeout) {
            options.admissionTimeout(timeout);
            return this;
        }

        @Override
        public Builder<O, A> resultReaders(ResultReaderProvider... providers) {
            options.resultReaders(providers);
            return this;
        }

        @Override
        public Builder<O, A> connectionPool(ConnectionPoolProvider provider) {
            options.connectionPool(provider);
            return this;
        }

        @Override
        public Builder<O, A> writePolicy(WritePolicyProvider provider) {
            options.writePolicy(provider);
            return this;
        }

        /**
         * Opens the database and creates (or checks) the collection's table.
         *
         * @throws DatabaseLockedException when the file is held by another process
         * @throws ProviderException       when a provider is missing, ambiguous or broken
         * @throws QuackException          when the file holds a different collection under this name
         * @throws IllegalArgumentException when the primary key's type cannot keep Java's exact equality and
         *                                  ordering in DuckDB (the message lists the supported key types)
         */
        public DuckDBPersistence<O, A> build() {
            KeyType.of(primaryKey.getAttributeType()); // an unsupported key type is refused before any file is opened
            ObjectLayoutProvider layoutProvider = layout != null ? layout
                    : Providers.load(ObjectLayoutProvider.class).named(layoutName != null ? layoutName
                    : columnarLayout != null ? "columnar" : "blob");
            Class<O> type = primaryKey.getObjectType();
            AllowedClasses allowed = allowedClasses == null && allowedPackages == null ? AllowedClasses.NONE
                    : AllowedClasses.of(allowedClasses == null ? new Class<?>[0] : allowedClasses,
                    allowedPackages == null ? new String[0] : allowedPackages);
            ObjectTable<O> objectTable = layoutProvider.createTable(type,
                    columnarLayout == null ? null : columnarLayout.description(), allowed);
            String tableName = name != null ? name : defaultName(type);
            if (shared != null) {
                return shared.register(tableName, database -> newPersistence(database, tableName, objectTable,
                        layoutProvider.name(), shared));
            }
            Database database = Database.open(options.settings());
            if (deleteOnClose != null) {
                // also when the persistence is dropped without close(): the cleaner deletes it then
                database.deleteAfterClose(deleteOnClose);
            }
            try {
                return newPersistence(database, tableName, objectTable, layoutProvider.name(), null);
            } catch (RuntimeException | Error e) {
                database.abandon();
                throw e;
            }
        }

        private DuckDBPersistence<O, A> newPersistence(Database database, String tableName, ObjectTable<O> objectTable,
                                                       String layoutName, DuckDBDatabase owner) {
            CollectionTable<O, A> table = new CollectionTable<>(database, tableName, primaryKey, objectTable,
                    layoutName, appenderThreshold == null ? 16 : appenderThreshold,
                    stagingChunkRows == null ? 131_072 : stagingChunkRows,
                    objectCacheSize == null ? 0 : objectCacheSize);
            table.create();
            table.progressListener(progressListener);
            return new DuckDBPersistence<>(primaryKey, database, table, deleteOnClose, owner);
        }

        static String defaultName(Class<?> type) {
            String simple = type.getSimpleName().isEmpty() ? "objects" : type.getSimpleName();
            return simple.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
        }
    }
}
