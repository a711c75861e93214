package io.quackjvm.api;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.persistence.Persistence;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.internal.answer.AggregateSql;
import io.quackjvm.api.internal.database.Catalog;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.collection.Compactor;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Snapshots;
import io.quackjvm.api.internal.database.DatabaseOptions;
import io.quackjvm.api.internal.collection.QuackCollection;
import io.quackjvm.api.internal.answer.SqlRunner;
import io.quackjvm.api.internal.answer.SqlViews;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicyProvider;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One DuckDB database holding several collections: one file (or one in-memory database), one memory limit, one
 * connection pool, and collections that can be queried together.
 *
 * <pre>{@code
 * try (DuckDBDatabase db = DuckDBDatabase.builder().file(Path.of("shop.duckdb")).memoryLimit("512MB").build()) {
 *     IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
 *     IndexedCollection<Dealer> dealers = db.collection(Dealer.DEALER_ID).name("dealer").build();
 *     ...
 * }
 * }</pre>
 *
 * <p>The database takes the database-wide settings; each collection takes its own through
 * {@link #collection(SimpleAttribute)}. Collections are named, and a name is used once per database. Writes
 * lock per collection: writers of two collections never wait for each other. Reopening a file and building each
 * collection again under its name finds its objects and indexes; a collection whose class, key type or layout
 * differs from what is stored under that name is refused with a message saying what differs.
 *
 * <p>Thread-safe. {@link #close()} closes every collection built from the database; later use of the database or
 * of any of them throws {@link PersistenceClosedException}.
 */
public final class DuckDBDatabase implements AutoCloseable {

    private final Database database;
    /** The open collections by lower-cased name (DuckDB's identifiers ignore case). Guarded by {@code this}. */
    private final Map<String, DuckDBPersistence<?, ?>> collections = new LinkedHashMap<>();

    /** How SQL sees the collections, and the runner of {@link #query}. */
    private final SqlViews views;
    private final SqlRunner runner;

    private DuckDBDatabase(Database database) {
        this.database = database;
        this.views = new SqlViews(database);
        this.runner = new SqlRunner(database, views, this::openTables);
    }

    /** A builder for the database-wide settings. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts a collection of this database, identified by {@code primaryKey}; finish it with
     * {@link CollectionBuilder#build()} or {@link CollectionBuilder#buildPersistence()}.
     */
    public <O, A extends Comparable<A>> CollectionBuilder<O, A> collection(SimpleAttribute<O, A> primaryKey) {
        database.checkOpen();
        return new CollectionBuilder<>(DuckDBPersistence.Builder.in(this, primaryKey));
    }

    // ---------------------------------------------------------------- answers in DuckDB

    /**
     * A SQL query over the collections of this database, each seen as one relation named as the collection (see
     * {@link #describe()} and docs/aggregates.md): for a columnar collection its fields, for a blob collection its
     * primary key and every attribute with a {@code DuckDBIndex}, all with their natural values. The text must be
     * exactly one read (a {@code SELECT}) of the collections' relations with built-in pure functions, so text an end
     * user typed may be passed: file reads, table functions, other relations and functions that reveal settings or
     * have side effects are refused (the list is in docs/aggregates.md); {@code ?} placeholders take {@code params}
     * in order, bound, never concatenated. Nothing runs until a method of the result is called, and each call runs
     * the query again.
     *
     * @throws UnsafeQueryException before anything runs, when the text holds several statements, one that is not a
     *                             read, or a construct that reaches beyond the collections (naming it and the SQL)
     * @throws QuackException      before anything runs, when the text cannot be parsed (naming the problem and the
     *                             SQL)
     * @throws PersistenceClosedException when the database is closed
     */
    public QueryResult query(String sql, Object... params) {
        database.checkOpen();
        return new QueryResult(runner, sql, params == null ? new Object[]{null} : params.clone());
    }

    /**
     * Typed aggregates of {@code collection}, a collection of this database, answered by DuckDB without
     * materialising objects; see {@link Aggregates}.
     *
     * @throws IllegalArgumentException when the collection is not a DuckDB collection of this database
     */
    public <O> Aggregates<O> from(IndexedCollection<O> collection) {
        DuckDBPersistence<O, ?> persistence = persistenceOf(collection, "The collection");
        return new Aggregates<>(AggregateSql.of(persistence.table(), views));
    }

    /** The tables of the open collections, for the SQL views. */
    private List<CollectionTable<?, ?>> openTables() {
        List<CollectionTable<?, ?>> tables = new ArrayList<>();
        for (DuckDBPersistence<?, ?> p : open(null)) {
            tables.add(p.table());
        }
        return tables;
    }

    /**
     * Starts a typed join of two collections of this database; say what to join on with
     * {@link DuckDBJoin#on}. See {@link DuckDBJoin}.
     *
     * @throws IllegalArgumentException   when either collection is not a collection of this database
     * @throws PersistenceClosedException when the database or either collection is closed
     */
    public <L, R> DuckDBJoin<L, R> join(IndexedCollection<L> left, IndexedCollection<R> right) {
        return new DuckDBJoin<>(persistenceOf(left, "The left collection"),
                persistenceOf(right, "The right collection"), null, null, null, null);
    }

    // ---------------------------------------------------------------- database-wide operations

    /**
     * Rewrites every index table of every collection sorted by value (see {@link DuckDBPersistence#optimize()}),
     * then checkpoints.
     */
    public void optimize() {
        for (DuckDBPersistence<?, ?> p : open("optimize()")) {
            p.table().indexes().optimize();
        }
        database.checkpoint(false);
        database.pages().release();
    }

    /**
     * Reclaims the space of deleted rows in every collection (see {@link DuckDBPersistence#compact()}), one
     * collection at a time, each in its own transaction.
     *
     * @throws QuackException when a collection's write lock stays held for two seconds, naming the collection
     */
    public void compact() {
        for (DuckDBPersistence<?, ?> p : open("compact()")) {
            Compactor.compact(p.table());
        }
        database.pages().release();
    }

    /**
     * Writes a consistent copy of the whole database (every collection, its indexes and its metadata) into a new
     * database file at {@code target}, while the application keeps reading and writing. The copy holds exactly the
     * writes committed before it started; a write committed while it runs is not in it. A database file is
     * checkpointed and then copied as it lies on disk, so readers do not wait and writers wait only for that
     * checkpoint; an in-memory or read-only database (or a file whose checkpoint another open write transaction
     * holds off) is copied by one DuckDB transaction instead, which nobody waits for but which costs more. The copy
     * is durable when this returns, and is a complete quackjvm file: open it with
     * {@code DuckDBDatabase.builder().file(target)}, for reading only with {@link Builder#readOnly()} (from any
     * number of processes), or put it in place of the original to restore. See docs/reliability.md ("Backup and
     * restore") for what it costs.
     *
     * <p>The file is written under a temporary name in {@code target}'s directory and moved to {@code target} once
     * complete, so a failed snapshot leaves nothing at {@code target}.
     *
     * @throws QuackException             when {@code target} exists or its directory does not, or the copy fails,
     *                                    naming the cause
     * @throws PersistenceClosedException when the database is closed, or is closed while the snapshot runs
     */
    public void snapshot(Path target) {
        Objects.requireNonNull(target, "target");
        open(null);
        Snapshots.take(database, target);
    }

    /**
     * An export of {@code collection}, a collection of this database, to Parquet files: say what and how with the
     * builder, then {@link ParquetExport#toParquet}. See {@link ParquetExport} and docs/interop.md.
     *
     * @throws IllegalArgumentException when the collection is not one of this database's
     */
    public <O> ParquetExport<O> export(IndexedCollection<O> collection) {
        return new ParquetExport<>(persistenceOf(collection, "The collection").table(), views);
    }

    /**
     * A bulk writer into {@code collection}, a collection of this database: see
     * {@link DuckDBPersistence#bulkWriter()}.
     *
     * @throws IllegalArgumentException when the collection is not one of this database's
     */
    public <O> DuckDBBulkWriter<O> bulkWriter(IndexedCollection<O> collection) {
        return persistenceOf(collection, "The collection").bulkWriter();
    }

    // ---------------------------------------------------------------- one collection's operations

    /**
     * A bulk importer into {@code collection}, a collection of this database, for objects whose keys are all new:
     * see {@link DuckDBPersistence#bulkImporter()}.
     *
     * @throws IllegalArgumentException   when the collection is not one of this database's
     * @throws PersistenceClosedException when the collection or the database is closed
     * @throws QuackException             when the database is read-only
     */
    public <O> DuckDBBulkWriter<O> bulkImporter(IndexedCollection<O> collection) {
        return persistenceOf(collection, "The collection").bulkImporter();
    }

    /**
     * What the object cache of {@code collection}, a collection of this database, has done since it was built:
     * see {@link DuckDBPersistence#cacheStats()}. All zero when its cache is off.
     *
     * @throws IllegalArgumentException   when the collection is not one of this database's
     * @throws PersistenceClosedException when the collection or the database is closed
     */
    public ObjectCacheStats cacheStats(IndexedCollection<?> collection) {
        return persistenceOf(collection, "The collection").cacheStats();
    }

    /**
     * Rewrites every index table of {@code collection}, a collection of this database, sorted by value, then
     * checkpoints: see {@link DuckDBPersistence#optimize()}.
     *
     * @throws IllegalArgumentException   when the collection is not one of this database's
     * @throws PersistenceClosedException when the collection or the database is closed
     */
    public void optimize(IndexedCollection<?> collection) {
        persistenceOf(collection, "The collection").optimize();
    }

    /**
     * Reclaims the space of the deleted rows of {@code collection}, a collection of this database, in one
     * transaction, then checkpoints: see {@link DuckDBPersistence#compact()}.
     *
     * @throws IllegalArgumentException   when the collection is not one of this database's
     * @throws PersistenceClosedException when the collection or the database is closed
     * @throws QuackException             when the collection's write lock stays held for two seconds
     */
    public void compact(IndexedCollection<?> collection) {
        persistenceOf(collection, "The collection").compact();
    }

    /**
     * Refreshes DuckDB's planner statistics of the tables of {@code collection}, a collection of this database
     * (ANALYZE of its object table and of each of its index tables).
     *
     * @throws IllegalArgumentException   when the collection is not one of this database's
     * @throws PersistenceClosedException when the collection or the database is closed
     */
    public void analyze(IndexedCollection<?> collection) {
        persistenceOf(collection, "The collection").table().analyze();
    }

    /**
     * The name of {@code collection}, a collection of this database: its table's name and the name SQL sees it by.
     *
     * @throws IllegalArgumentException   when the collection is not one of this database's
     * @throws PersistenceClosedException when the collection or the database is closed
     */
    public String nameOf(IndexedCollection<?> collection) {
        return persistenceOf(collection, "The collection").getTableName();
    }

    /**
     * Closes {@code collection}, a collection of this database, alone: see {@link DuckDBPersistence#close()}. Its
     * later use throws {@link PersistenceClosedException}, its name may be built again, and its rows stay in the
     * database. Closing a collection already closed does nothing.
     *
     * @throws IllegalArgumentException   when the collection is not one of this database's
     * @throws PersistenceClosedException when the database is closed
     */
    public void close(IndexedCollection<?> collection) {
        ownPersistence(collection, "The collection").close();
    }

    /**
     * How {@code query} on {@code collection}, a collection of this database, is answered, as text for a person:
     * whether DuckDB answers it as one statement or CQEngine's engine does with the collection's indexes, the
     * statement with its {@code ?} parameters, what is filtered or ordered in Java, and DuckDB's plan
     * ({@code EXPLAIN}) of the statement. Nothing is retrieved. See docs/operations.md.
     *
     * @throws IllegalArgumentException   when the collection is not one of this database's
     * @throws PersistenceClosedException when the collection or the database is closed
     */
    public <O> String explain(IndexedCollection<O> collection, Query<O> query) {
        persistenceOf(collection, "The collection");
        Objects.requireNonNull(query, "query");
        if (!(collection instanceof QuackCollection<O> quack)) {
            throw new IllegalArgumentException("explain needs a collection built by this database's "
                    + "collection(primaryKey).build()");
        }
        return quack.explain(query, new QueryOptions());
    }

    /**
     * Adds a listener that hears every statement, write, write-lock wait and write conflict of this database from
     * now on, for metrics. See {@link OperationListener}.
     */
    public void addListener(OperationListener listener) {
        database.statements().addListener(listener);
    }

    /** Removes a listener added with {@link #addListener}; does nothing when it was not added. */
    public void removeListener(OperationListener listener) {
        database.statements().removeListener(listener);
    }

    /** The connections of this database's pool: lent now, and idle. */
    public ConnectionPoolStats poolStats() {
        return database.poolStats();
    }

    /** Refreshes DuckDB's planner statistics of every table (ANALYZE). */
    public void analyze() {
        database.checkOpen();
        database.execute("Analyzing", "ANALYZE");
    }

    /** The size of the database file including its write-ahead log (for in-memory: of its blocks), in bytes. */
    public long getBytesUsed() {
        return database.bytesUsed();
    }

    /**
     * A readable catalog: each open collection's name, class, key, layout and row count, the relation SQL sees it
     * as ({@link #query}: its columns with their DuckDB types), the columns of its table, its attribute indexes
     * with their strategies, and the size of the database.
     */
    public String describe() {
        return Catalog.describe(database, openTables(), views);
    }

    /**
     * What the object cache of each open collection has done since it was built, by collection name (see
     * {@link DuckDBPersistence#cacheStats()}), in the order the collections were built.
     *
     * @throws PersistenceClosedException when the database is closed
     */
    public Map<String, ObjectCacheStats> cacheStats() {
        Map<String, ObjectCacheStats> out = new LinkedHashMap<>();
        for (DuckDBPersistence<?, ?> p : open(null)) {
            out.put(p.getTableName(), p.cacheStats());
        }
        return out;
    }

    /** The names of the collections built so far and not closed, in the order they were built. */
    public synchronized List<String> collectionNames() {
        database.checkOpen();
        List<String> names = new ArrayList<>();
        for (DuckDBPersistence<?, ?> p : collections.values()) {
            names.add(p.getTableName());
        }
        return names;
    }

    /**
     * Closes every collection built from this database and then the database, releasing its file. Results and
     * iterators still open are released and fail if used; a write still running on another thread is rolled
     * back. Idempotent and thread-safe: a call made while another thread is closing returns once that one is done.
     *
     * @throws QuackException when the connection pool failed to close; the database is closed and its file
     *                        released all the same
     */
    @Override
    public void close() {
        List<DuckDBPersistence<?, ?>> all;
        synchronized (this) {
            all = new ArrayList<>(collections.values());
            collections.clear();
        }
        for (DuckDBPersistence<?, ?> p : all) {
            p.table().close();
        }
        database.close();
    }

    /**
     * Whether {@link #close()} has run (or is running). Cheap and never throws: for health checks and gauges that
     * must not touch a closed database.
     */
    public boolean isClosed() {
        return database.isClosed();
    }

    @Override
    public String toString() {
        return "DuckDBDatabase{" + database.describe() + "}";
    }

    // ---------------------------------------------------------------- for the collections and the query API

    /** The open collections, after checking that the database is open and, for {@code write}, writable. */
    private synchronized List<DuckDBPersistence<?, ?>> open(String write) {
        database.checkOpen();
        if (write != null) {
            database.checkWritable(write);
        }
        return new ArrayList<>(collections.values());
    }

    /** Builds a collection with {@code factory} under {@code name}, refusing a name already in use. */
    synchronized <O, A extends Comparable<A>> DuckDBPersistence<O, A> register(
            String name, Function<Database, DuckDBPersistence<O, A>> factory) {
        database.checkOpen();
        DuckDBPersistence<?, ?> existing = collections.get(key(name));
        if (existing != null) {
            throw new IllegalArgumentException("A collection named '" + existing.getTableName() + "' (of "
                    + existing.getPrimaryKeyAttribute().getObjectType().getName() + ") is already open in this "
                    + "database; give the new one another name(...), or close the first one");
        }
        DuckDBPersistence<O, A> persistence = factory.apply(database);
        collections.put(key(name), persistence);
        return persistence;
    }

    /** Forgets a collection closed on its own, freeing its name. */
    synchronized void unregister(String name, DuckDBPersistence<?, ?> persistence) {
        collections.remove(key(name), persistence);
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** The engine's database; for the query API. */
    Database database() {
        return database;
    }

    /**
     * The persistence of {@code collection}, which must be a collection of this database.
     *
     * @param role how the caller names the collection in a message, for example {@code "the right collection"}
     * @throws IllegalArgumentException naming the problem when it is not a DuckDB collection of this database
     * @throws PersistenceClosedException when it or the database is closed
     */
    <O> DuckDBPersistence<O, ?> persistenceOf(IndexedCollection<O> collection, String role) {
        DuckDBPersistence<O, ?> duck = ownPersistence(collection, role);
        duck.table().checkOpen();
        return duck;
    }

    /** The persistence of {@code collection}, which must be a collection of this database, open or closed. */
    private <O> DuckDBPersistence<O, ?> ownPersistence(IndexedCollection<O> collection, String role) {
        Objects.requireNonNull(collection, role);
        database.checkOpen();
        Persistence<O, ?> persistence = collection.getPersistence();
        if (!(persistence instanceof DuckDBPersistence)) {
            throw new IllegalArgumentException(role + " is not stored in DuckDB (its persistence is "
                    + persistence.getClass().getSimpleName() + "); build it with database.collection(pk)");
        }
        DuckDBPersistence<O, ?> duck = (DuckDBPersistence<O, ?>) persistence;
        if (duck.owner() != this) {
            throw new IllegalArgumentException(role + " '" + duck.getTableName() + "' belongs to "
                    + (duck.owner() == null ? "a database of its own (DuckDBPersistence.builder)" : "another "
                    + "DuckDBDatabase") + ", not to this one; build both collections from one DuckDBDatabase to "
                    + "query them together");
        }
        return duck;
    }

    /**
     * Builds a {@link DuckDBDatabase} from the settings of {@link DatabaseConfig}. Not thread-safe.
     */
    public static final class Builder implements DatabaseConfig<Builder> {

        private final DatabaseOptions options = new DatabaseOptions();

        private Builder() {
        }

        @Override
        public Builder inMemory() {
            options.inMemory();
            return this;
        }

        @Override
        public Builder file(Path file) {
            options.file(file);
            return this;
        }

        @Override
        public Builder readOnly() {
            options.readOnly();
            return this;
        }

        @Override
        public Builder memoryLimit(String limit) {
            options.memoryLimit(limit);
            return this;
        }

        @Override
        public Builder property(String key, String value) {
            options.property(key, value);
            return this;
        }

        @Override
        public Builder properties(Map<String, String> settings) {
            options.properties(settings);
            return this;
        }

        @Override
        public Builder serializeWrites(boolean serialize) {
            options.serializeWrites(serialize);
            return this;
        }

        @Override
        public Builder maxPooledConnections(int max) {
            options.maxPooledConnections(max);
            return this;
        }

        @Override
        public Builder trackUnclosedResults(boolean track) {
            options.trackUnclosedResults(track);
            return this;
        }

        @Override
        public Builder queryTimeout(Duration timeout) {
            options.queryTimeout(timeout);
            return this;
        }

        @Override
        public Builder slowStatementThreshold(Duration threshold) {
            options.slowStatementThreshold(threshold);
            return this;
        }

        @Override
        public Builder maxConcurrentQueries(int max) {
            options.maxConcurrentQueries(max);
            return this;
        }

        @Override
        public Builder admissionTimeout(Duration timeout) {
            options.admissionTimeout(timeout);
            return this;
        }

        @Override
        public Builder resultReaders(ResultReaderProvider... providers) {
            options.resultReaders(providers);
            return this;
        }

        @Override
        public Builder connectionPool(ConnectionPoolProvider provider) {
            options.connectionPool(provider);
            return this;
        }

        @Override
        public Builder writePolicy(WritePolicyProvider provider) {
            options.writePolicy(provider);
            return this;
        }

        /**
         * Opens the database.
         *
         * @throws DatabaseLockedException when the file is held by another process or already open in this JVM
         * @throws ProviderException       when a provider is missing, ambiguous or broken
         * @throws QuackException          when the file is not a DuckDB database
         */
        public DuckDBDatabase build() {
            return new DuckDBDatabase(Database.open(options.settings()));
        }
    }

    /**
     * Builds one collection of a {@link DuckDBDatabase} from the settings of {@link CollectionConfig} (the
     * database's settings are the database's). Not thread-safe.
     *
     * @param <O> the type of the stored objects
     * @param <A> the type of the primary key
     */
    public static final class CollectionBuilder<O, A extends Comparable<A>>
            implements CollectionConfig<O, CollectionBuilder<O, A>> {

        private final DuckDBPersistence.Builder<O, A> builder;

        private CollectionBuilder(DuckDBPersistence.Builder<O, A> builder) {
            this.builder = builder;
        }

        @Override
        public CollectionBuilder<O, A> name(String name) {
            builder.name(name);
            return this;
        }

        @Override
        public CollectionBuilder<O, A> allowClasses(Class<?>... classes) {
            builder.allowClasses(classes);
            return this;
        }

        @Override
        public CollectionBuilder<O, A> allowPackages(String... packages) {
            builder.allowPackages(packages);
            return this;
        }

        @Override
        public CollectionBuilder<O, A> layout(ObjectLayoutProvider provider) {
            builder.layout(provider);
            return this;
        }

        @Override
        public CollectionBuilder<O, A> layout(String providerName) {
            builder.layout(providerName);
            return this;
        }

        @Override
        public CollectionBuilder<O, A> columnarLayout(ColumnarLayout<? super O> columnarLayout) {
            builder.columnarLayout(columnarLayout);
            return this;
        }

        @Override
        public CollectionBuilder<O, A> appenderThreshold(int rows) {
            builder.appenderThreshold(rows);
            return this;
        }

        @Override
        public CollectionBuilder<O, A> stagingChunkRows(int rows) {
            builder.stagingChunkRows(rows);
            return this;
        }

        @Override
        public CollectionBuilder<O, A> objectCacheSize(int objects) {
            builder.objectCacheSize(objects);
            return this;
        }

        @Override
        public CollectionBuilder<O, A> progressListener(ProgressListener listener) {
            builder.progressListener(listener);
            return this;
        }

        /**
         * Creates the collection's table (or finds it in the file) and returns the collection, a
         * {@link com.googlecode.cqengine.ConcurrentIndexedCollection} whose queries this database can answer as a
         * whole.
         *
         * @throws IllegalArgumentException when the name is already used by an open collection of this database,
         *                                  or the key type is not supported
         * @throws QuackException           when the file holds a different collection under this name
         */
        public IndexedCollection<O> build() {
            DuckDBPersistence<O, A> persistence = buildPersistence();
            return new QuackCollection<>(persistence, persistence.table());
        }

        /**
         * Creates the collection's table (or finds it in the file) and returns its persistence, for an
         * {@code ObjectLockingIndexedCollection} or {@code TransactionalIndexedCollection}.
         *
         * @throws IllegalArgumentException when the name is already used by an open collection of this database
         * @throws QuackException           when the file holds a different collection under this name
         */
        public DuckDBPersistence<O, A> buildPersistence() {
            return builder.build();
        }
    }
}
