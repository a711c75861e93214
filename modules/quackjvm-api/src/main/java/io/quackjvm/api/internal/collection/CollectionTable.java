package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.index.IndexTable;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.spi.AttributeColumn;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.IndexStrategyProvider;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.ValueType;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One collection stored in DuckDB, as the CQEngine adapters see it: the entry point that composes the classes
 * owning each concern of the collection, and nothing more. {@link CollectionSchema} owns the object table's shape
 * and metadata, {@link CollectionStatements} the request transactions and statement plumbing,
 * {@link CollectionReads} the reads, {@link CollectionWrites} the writes, {@link CollectionIndexes} the attached
 * attribute index tables. It must hold no logic of its own: each method hands the call to the class that owns it.
 * Thread-safe.
 */
public final class CollectionTable<O, A> {

    private final Database db;
    private final CollectionSchema<O, A> schema;
    private final CollectionStatements statements;
    private final CollectionIndexes<O, A> indexes;
    private final CollectionReads<O, A> reads;
    private final CollectionWrites<O, A> writes;
    private volatile boolean closed;
    private final ProgressReporter progress;
    private final int stagingChunkRows;
    private final ObjectCache<A, O> cache;

    /** {@code objectCacheSize}: the bound of the object cache ({@link ObjectCache}), 0 for none. */
    public CollectionTable(Database db, String name, SimpleAttribute<O, A> primaryKey, ObjectTable<O> layout,
                           String layoutName, int appenderThreshold, int stagingChunkRows, int objectCacheSize) {
        this.db = db;
        this.cache = ObjectCache.of(objectCacheSize);
        this.schema = new CollectionSchema<>(db, name, primaryKey, layout, layoutName);
        this.statements = new CollectionStatements(db, name, this);
        this.indexes = new CollectionIndexes<>(schema, statements, stagingChunkRows);
        this.reads = new CollectionReads<>(schema, statements, cache);
        this.progress = new ProgressReporter(name);
        this.stagingChunkRows = stagingChunkRows;
        this.writes = new CollectionWrites<>(schema, statements, indexes, appenderThreshold, stagingChunkRows,
                progress);
    }

    // ---------------------------------------------------------------- what the collection is

    public String name() {
        return schema.name;
    }

    public Database database() {
        return db;
    }

    /**
     * Closes this collection alone (its database stays open for the others): every later request fails with
     * {@link PersistenceClosedException}.
     */
    public void close() {
        closed = true;
    }

    /** Whether this collection or its database has been closed. */
    public boolean isClosed() {
        return closed || db.isClosed();
    }

    /** Fails with {@link PersistenceClosedException} when this collection or its database is closed. */
    public void checkOpen() {
        db.checkOpen();
        if (closed) {
            throw new PersistenceClosedException("Collection '" + name() + "' has been closed; "
                    + "build it again from its database to use it");
        }
    }

    /** The name of the object layout provider that stores the objects. */
    public String layoutName() {
        return schema.layoutName;
    }

    public SimpleAttribute<O, A> primaryKey() {
        return schema.primaryKey;
    }

    /** The quoted table name, for SQL. */
    public String sqlName() {
        return schema.table;
    }

    /** The comma-separated quoted value columns, for SQL. */
    public String sqlColumns() {
        return schema.sql().columns();
    }

    /** The layout columns qualified with {@code alias}, for a join: {@code o."c1", o."c2"}. */
    public String sqlColumns(String alias) {
        return schema.qualified(alias);
    }

    /** How many layout columns an object occupies (the first columns of {@link #query} rows). */
    public int columnCount() {
        return schema.columnCount();
    }

    /** The DuckDB type of the key column. */
    String keySqlType() {
        return schema.keyType.sqlType;
    }

    /** How keys are stored: every key bound in SQL is {@code keyType().encode(key)}. */
    public KeyType<A> keyType() {
        return schema.keyType;
    }

    /** The layout's columns as declared (type and compression), for rewriting the table ({@link Compactor}). */
    List<Column> layoutColumns() {
        return schema.layout.columns();
    }

    /**
     * The layout's columns that hold a field of the object ({@link ObjectTable#sqlValue} is not {@code null}), in the
     * table's order: what SQL may read as an attribute's values.
     */
    public List<Column> valueColumns() {
        List<Column> all = schema.layout.columns();
        ValueColumns cached = valueColumns;
        if (cached != null && cached.of() == all) {
            return cached.values();
        }
        List<Column> out = new ArrayList<>();
        for (Column c : all) {
            if (schema.layout.sqlValue(c, "") != null) {
                out.add(c);
            }
        }
        valueColumns = new ValueColumns(all, List.copyOf(out));
        return valueColumns.values();
    }

    /** {@link #valueColumns()} of one list of layout columns (reconciling may replace the list). */
    private record ValueColumns(List<Column> of, List<Column> values) {
    }

    private volatile ValueColumns valueColumns;

    /**
     * The column the layout declares for the attribute named {@code attribute} (exactly), or {@code null}.
     *
     * @throws io.quackjvm.api.ProviderException when the layout declares a column it does not have, or one
     *                                           attribute twice
     */
    public AttributeColumn attributeColumn(String attribute) {
        return declared().byName().get(attribute);
    }

    /** The layout's declarations for the columns it has now, checked once per list of columns. */
    private Declared declared() {
        List<Column> all = schema.layout.columns();
        Declared d = declared;
        if (d == null || d.of() != all) {
            d = new Declared(all, declarations(all));
            declared = d;
        }
        return d;
    }

    /** The declaration of the layout column named {@code column} (ignoring case), or {@code null}. */
    public AttributeColumn declarationOf(Column column) {
        for (AttributeColumn a : declared().byName().values()) {
            if (a.column().name().equalsIgnoreCase(column.name())) {
                return a;
            }
        }
        return null;
    }

    private Map<String, AttributeColumn> declarations(List<Column> columns) {
        Map<String, AttributeColumn> out = new HashMap<>();
        for (AttributeColumn a : schema.layout.attributeColumns()) {
            boolean present = false;
            for (Column c : columns) {
                present |= c.name().equalsIgnoreCase(a.column().name());
            }
            if (!present || out.put(a.attribute(), a) != null) {
                throw new io.quackjvm.api.ProviderException("Object layout '" + layoutName() + "' of collection '"
                        + name() + "' declares " + (present ? "attribute '" + a.attribute() + "' twice"
                        : "column '" + a.column().name() + "' for attribute '" + a.attribute() + "', which its "
                        + "table does not have (" + columns.stream().map(Column::name).toList() + ")")
                        + "; the layout provider must declare each attribute once, on one of its own columns");
            }
        }
        return Map.copyOf(out);
    }

    /** The layout's declarations for one list of its columns (reconciling may replace the list). */
    private record Declared(List<Column> of, Map<String, AttributeColumn> byName) {
    }

    private volatile Declared declared;

    /** The SQL value of a field's column as the object holds it ({@link ObjectTable#sqlValue}). */
    public String sqlValue(Column column, String qualifier) {
        return schema.layout.sqlValue(column, qualifier);
    }

    RequestScopes scopes() {
        return statements.scopes();
    }

    /** Whether this thread's request in {@code options} has written (its reads bypass the object cache). */
    public boolean writing(QueryOptions options) {
        return statements.writing(options);
    }

    /** Whether lookups by key go through the object cache. */
    public boolean cacheEnabled() {
        return cache.enabled();
    }

    /** The object cache (disabled when {@code objectCacheSize} is 0); writers mark what they change in it. */
    public ObjectCache<A, O> objectCache() {
        return cache;
    }

    /** What the object cache has done; all zero when it is off. */
    public io.quackjvm.api.ObjectCacheStats cacheStats() {
        return cache.stats();
    }

    /** Empties the object cache, for {@code close()}. */
    public void clearCache() {
        cache.clear();
    }

    /** Creates the table, or checks that the one found in the file fits this collection. */
    public void create() {
        try {
            if (db.isInMemory() && db.firstCollection()) {
                // the first collection of a new in-memory database: nothing to look for
                schema.createFirstInMemory();
                return;
            }
        } catch (SQLException e) {
            throw Failures.wrap("Creating collection '" + name() + "' in the " + db.describe(), null, e);
        }
        try (PooledConnection c = db.borrow()) {
            // The metadata tables are checked once per database: every catalog query (information_schema,
            // duckdb_tables()) reads every attached catalog, so it would cost more the more in-memory databases
            // share the engine.
            if (!db.metadataReady()) {
                if (db.isInMemory()) {
                    db.ensureMetadata(c, CollectionSchema.metadataDdl());
                } else {
                    schema.ensureMetadata(c);
                    indexes.ensureMetadata(c);
                    db.metadataReady(true);
                }
            }
            indexes.open(c);
            schema.createOrReconcile(c);
        } catch (SQLException e) {
            throw Failures.wrap("Creating collection '" + name() + "' in the " + db.describe(), null, e);
        }
    }

    // ---------------------------------------------------------------- requests and statements

    public void openRequest(QueryOptions options) {
        statements.scopes().open(options);
    }

    public void closeRequest(QueryOptions options) {
        statements.scopes().close(options);
    }

    /** Runs a write in the request's transaction (or one of its own); see {@link CollectionStatements#write}. */
    <T> T write(QueryOptions options, String action, CollectionStatements.Work<T> work) {
        return statements.write(options, action, work);
    }

    /** Runs {@code sql} (one row, one long column) and returns the value. */
    public long queryLong(QueryOptions options, String sql, List<?> params) {
        return statements.queryLong(options, sql, params);
    }

    /** Runs {@code sql} and maps every row; for small answers (statistics, distinct values). */
    public <T> List<T> queryList(QueryOptions options, String sql, List<?> params,
                                 CollectionStatements.ResultMapper<T> mapper) {
        return statements.queryList(options, sql, params, mapper);
    }

    // ---------------------------------------------------------------- reads

    public int size(QueryOptions options) {
        return reads.size(options);
    }

    public boolean isEmpty(QueryOptions options) {
        return reads.isEmpty(options);
    }

    /** The stored object with this key, or {@code null}. */
    public O get(A key, QueryOptions options) {
        return reads.get(key, options);
    }

    /** Set semantics, as on the heap: the stored object with this key must be {@code equals} to {@code o}. */
    public boolean contains(Object o, QueryOptions options) {
        return reads.contains(o, options);
    }

    /** A cursor over the objects of {@code SELECT columns FROM table <tail>}; see {@link CollectionStatements#cursor}. */
    public CloseableIterator<O> objects(QueryOptions options, String tail, List<?> params, boolean large) {
        return reads.objects(options, tail, params, large);
    }

    /** The object store's iterator: every object, streamed; {@code Iterator.remove()} through it takes effect at once. */
    CloseableIterator<O> iterator(QueryOptions options) {
        return reads.iterator(options);
    }

    /** As {@link #objects} for reads by key; see {@link CollectionReads#lookups}. */
    public CloseableIterator<O> lookups(QueryOptions options, String tail, List<?> params, A key) {
        return reads.lookups(options, tail, params, key);
    }

    /** A cursor over rows that start with the layout columns, for joins; see {@link CollectionReads#query}. */
    public <T> CloseableIterator<T> query(QueryOptions options, String sql, List<?> params, boolean large,
                                          CollectionReads.RowMapper<O, T> mapper) {
        return reads.query(options, sql, params, large, mapper);
    }

    /** As {@link #query}, over a covering index table's copies; see {@link CollectionReads#queryCopies}. */
    public <T> CloseableIterator<T> queryCopies(QueryOptions options, String sql, List<?> params, boolean large,
                                         CollectionReads.RowMapper<O, T> mapper) {
        return reads.queryCopies(options, sql, params, large, mapper);
    }

    /** As {@link #queryAll}, over a covering index table's copies; see {@link CollectionReads#queryAllCopies}. */
    public <T> List<T> queryAllCopies(QueryOptions options, String sql, List<?> params,
                               CollectionReads.RowMapper<O, T> mapper) {
        return reads.queryAllCopies(options, sql, params, mapper);
    }

    /** A cursor over objects already read by {@link #queryAll}, registered with the request as cursors are. */
    public <T> CloseableIterator<T> cursorOver(List<T> rows) {
        return statements.cursorOver(rows);
    }

    /** Every row of {@code sql} read at once through the point reader, for a result bounded by a LIMIT. */
    <T> List<T> queryAll(QueryOptions options, String sql, List<?> params, CollectionReads.RowMapper<O, T> mapper) {
        return reads.queryAll(options, sql, params, mapper);
    }

    /** Reads one object from a row whose columns are the layout columns (for joins: the right side's). */
    public O readObject(io.quackjvm.api.spi.RowSource row) throws SQLException {
        return schema.layout.read(row);
    }

    /** The objects whose keys {@code keysSql} selects, or {@code null} when more than {@code limit}. */
    public List<O> fewObjects(QueryOptions options, String keysSql, List<?> params, int limit) {
        return reads.fewObjects(options, keysSql, params, limit);
    }

    /** A streaming cursor over the keys {@code sql} selects. */
    public CloseableIterator<A> keys(QueryOptions options, String sql, List<?> params) {
        return reads.keys(options, sql, params);
    }

    // ---------------------------------------------------------------- writes

    /** Adds objects, replacing a stored object with the same key unless it is equal; see {@link CollectionWrites}. */
    public boolean addAll(Collection<? extends O> objects, QueryOptions options) {
        return writes.addAll(objects, options);
    }

    /** Adds one object as CQEngine's {@code add} does; see {@link CollectionWrites#addOne}. */
    public boolean add(O object, QueryOptions options) {
        return writes.addOne(object, options);
    }

    /** Removes the objects that are stored and equal. */
    public boolean removeAll(Collection<?> objects, QueryOptions options) {
        return writes.removeAll(objects, options, false);
    }

    /**
     * The object store's {@code removeAll}: as {@link #removeAll}, except that removing the one object the store's
     * open iterator returned last (what CQEngine's {@code Iterator.remove()} does) takes effect at once.
     */
    boolean removeAllFromStore(Collection<?> objects, QueryOptions options) {
        return writes.removeAll(objects, options, true);
    }

    public void clear(QueryOptions options) {
        writes.clear(options);
    }

    /** A new bulk load into this collection; see {@link BulkLoad}. */
    public BulkLoad<O, A> bulkLoad(boolean promisedNew) {
        db.checkOpen();
        db.checkWritable("Bulk loading collection '" + name() + "'");
        return new BulkLoad<>(this, schema, statements, writes, stagingChunkRows, promisedNew, progress);
    }

    /** Sets the listener that long operations of this collection report their progress to. */
    public void progressListener(io.quackjvm.api.ProgressListener listener) {
        progress.listener(listener);
    }

    /** Where long operations report their progress. */
    ProgressReporter progress() {
        return progress;
    }

    // ---------------------------------------------------------------- attribute indexes

    /** The attached attribute indexes. */
    public List<IndexTable<O, ?>> indexTables() {
        return indexes.all();
    }

    /** Describes an attribute index on this collection (nothing is created until {@link #attach}). */
    public <V> IndexTable<O, V> indexTable(Attribute<O, V> attribute, ValueType<V> valueType,
                                          IndexStrategyProvider strategy, boolean covering) {
        return indexes.describe(attribute, valueType, strategy, covering);
    }

    /** Attaches an attribute index; see {@link CollectionIndexes#attach}. */
    public boolean attach(IndexTable<O, ?> index, QueryOptions options) {
        return indexes.attach(index, options);
    }

    /** Detaches an attribute index and drops its table, in one transaction. */
    public void detach(IndexTable<O, ?> index, QueryOptions options) {
        indexes.detach(index, options);
    }

    /** Refreshes DuckDB's planner statistics of this collection's table and of each of its index tables. */
    public void analyze() {
        checkOpen();
        db.execute("Analyzing collection '" + name() + "'", "ANALYZE " + sqlName());
        for (IndexTable<O, ?> index : indexTables()) {
            db.execute("Analyzing collection '" + name() + "'", "ANALYZE " + index.sqlName());
        }
    }

    /** Rewrites every attached index table sorted by value, in one transaction. */
    public void optimizeIndexes() {
        indexes.optimize(progress);
    }
}
