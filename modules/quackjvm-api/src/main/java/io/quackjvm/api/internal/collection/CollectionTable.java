package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.index.IndexTable;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.PooledConnection;

import java.sql.SQLException;
import java.util.Collection;

/**
 * One collection stored in DuckDB: the root that builds the rooms owning each concern of the collection and hands
 * them out, plus the collection's own life (create, close, analyze, bulk loads). {@link CollectionSchema} owns the
 * object table's shape and metadata (its {@link CollectionColumns} the columns as SQL sees them),
 * {@link CollectionStatements} the request transactions and statement plumbing, {@link CollectionReads} the
 * reads, {@link CollectionWrites} the writes, {@link CollectionIndexes} the attached attribute index tables and
 * {@link ObjectCache} the objects kept on the heap. Callers talk to the room that owns what they need.
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
        this.progress = new ProgressReporter(name);
        this.indexes = new CollectionIndexes<>(schema, statements, stagingChunkRows, progress);
        this.reads = new CollectionReads<>(schema, statements, cache);
        this.stagingChunkRows = stagingChunkRows;
        this.writes = new CollectionWrites<>(schema, statements, indexes, appenderThreshold, stagingChunkRows,
                progress);
    }

    // ---------------------------------------------------------------- the rooms

    /** The object table's shape, key and metadata. */
    public CollectionSchema<O, A> schema() {
        return schema;
    }

    /** The object table's columns as SQL sees them, and the layout's declarations of them. */
    public CollectionColumns<O> columns() {
        return schema.columns;
    }

    /** Request transactions, cursors and small queries. */
    public CollectionStatements statements() {
        return statements;
    }

    /** Every read of objects and keys. */
    public CollectionReads<O, A> reads() {
        return reads;
    }

    /** Every change to the objects. */
    public CollectionWrites<O, A> writes() {
        return writes;
    }

    /** The attached attribute index tables. */
    public CollectionIndexes<O, A> indexes() {
        return indexes;
    }

    /** The object cache (disabled when {@code objectCacheSize} is 0); writers mark what they change in it. */
    public ObjectCache<A, O> cache() {
        return cache;
    }

    // ---------------------------------------------------------------- the collection's life

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

    /** Creates the table, or checks that the one found in the file fits this collection. */
    public void create() {
        try {
            if (db.isInMemory() && db.collections().firstCollection()) {
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
            if (!db.collections().metadataReady()) {
                if (db.isInMemory()) {
                    db.collections().ensureMetadata(c, CollectionSchema.metadataDdl());
                } else {
                    schema.ensureMetadata(c);
                    indexes.ensureMetadata(c);
                    db.collections().metadataReady(true);
                }
            }
            indexes.open(c);
            schema.createOrReconcile(c);
        } catch (SQLException e) {
            throw Failures.wrap("Creating collection '" + name() + "' in the " + db.describe(), null, e);
        }
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

    /** Refreshes DuckDB's planner statistics of this collection's table and of each of its index tables. */
    public void analyze() {
        checkOpen();
        db.execute("Analyzing collection '" + name() + "'", "ANALYZE " + schema.sqlName());
        for (IndexTable<O, ?> index : indexes.all()) {
            db.execute("Analyzing collection '" + name() + "'", "ANALYZE " + index.sqlName());
        }
    }
}
