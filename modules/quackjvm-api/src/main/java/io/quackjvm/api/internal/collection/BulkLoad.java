package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.database.Failures;

import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One bulk load into a collection (the engine of {@code DuckDBBulkWriter}): objects are keyed into a chunk of
 * {@code stagingChunkRows}, and each full chunk goes into the load's one DuckDB transaction through
 * {@link CollectionAppends#appendEncoded} (objects, then index rows, through the transaction's
 * {@link LoadAppenders}: one Appender per table, kept from the first chunk to the commit, and the replace check
 * only for a chunk whose keys may be stored), so the Java heap holds two chunks at most. Each chunk is serialised on the loading thread ({@link EncodedChunk})
 * and appended on the load's own appender thread, so that serialising the next chunk overlaps with DuckDB's work
 * on this one; one chunk is in flight at a time, and its failure surfaces at the next call. {@link #commit()} makes every chunk visible at once, object and
 * index tables together; {@link #close()} without it, any failure, or a process that dies, leaves the collection
 * as it was, because nothing is committed before.
 *
 * <p>The transaction is a {@link RequestScope} of its own: it takes the collection's write lock with the first
 * chunk and keeps it until commit or close, and it is registered with the database's open resources, so closing
 * the database rolls it back. Writes by other threads wait for the lock; a write on the load's own thread
 * (which would re-enter the lock and race the load in a second transaction) is refused by
 * {@link CollectionStatements#write}. Confined to the thread that first used it.
 */
public final class BulkLoad<O, A> implements AutoCloseable {

    private final CollectionTable<O, A> table;
    private final CollectionSchema<O, A> schema;
    private final CollectionStatements statements;
    private final CollectionWrites<O, A> writes;
    private final int chunkRows;
    private final boolean promisedNew;
    private final ProgressReporter progress;

    private Map<A, O> chunk = new LinkedHashMap<>();
    /**
     * For objects given with the bytes of their stored row ({@link #addAllStored}): those bytes, in the order of the
     * buffered chunk's keys; null otherwise, and for a chunk in which a key came twice (then serialised again).
     */
    private List<byte[]> storedChunk;
    /** What the objects given now come with. */
    private Given givenWith = Given.OBJECTS;

    /** What the objects given to the load come with. */
    private enum Given {
        /** Nothing: each is serialised. */
        OBJECTS,
        /** The bytes of its stored row ({@link #addAllStored}), stored as they are. */
        STORED_ROWS,
        /** Its row, in the table already ({@link #addAllIndexed}): only its index rows are written. */
        ROWS_INSERTED
    }
    private RequestScope scope;
    /** The open transaction's appenders and what it knows of the keys it may meet. */
    private LoadAppenders appenders;
    private ProgressReporter.Tracker tracker;
    private Thread owner;
    /** The appender thread of the open transaction, and the chunk it is appending. */
    private ExecutorService appender;
    private Future<?> pending;
    private int pendingRows;
    /** Why the load can take nothing more: it failed (and was rolled back), or it was closed. */
    private String unusable;
    /** Objects per committed slice of a sliced load ({@link #commitEvery}), or 0 for one transaction. */
    private long sliceSize;
    /** Objects a resumed sliced load still skips: those an earlier run committed. */
    private long toSkip;
    /** Objects an earlier run of this sliced load committed. */
    private long resumedAfter;
    /** Objects given to this load so far (skipped ones included), and in the open slice. */
    private long given;
    private long inSlice;
    /** Whether anything was given to the load yet. */
    private boolean started;

    /** The table of sliced loads that have not reached their final commit, and how far each got. */
    static final String LOADS = "quackjvm_loads";
    private static final String LOADS_DDL = "CREATE TABLE IF NOT EXISTS " + LOADS
            + " (collection VARCHAR PRIMARY KEY, committed BIGINT NOT NULL)";

    BulkLoad(CollectionTable<O, A> table, CollectionSchema<O, A> schema, CollectionStatements statements,
             CollectionWrites<O, A> writes, int chunkRows, boolean promisedNew, ProgressReporter progress) {
        this.table = table;
        this.schema = schema;
        this.statements = statements;
        this.writes = writes;
        this.chunkRows = chunkRows;
        this.promisedNew = promisedNew;
        this.progress = progress;
    }

    /** Adds one object to the load; a full chunk is written into the load's transaction now. */
    public void add(O object) {
        check();
        try {
            put(object, null);
        } catch (RuntimeException | Error e) {
            throw abort(e);
        }
    }

    /** Adds every object {@code objects} yields; an exception from the iteration fails the whole load. */
    public void addAll(Iterable<? extends O> objects) {
        addAll(objects, Given.OBJECTS, null);
    }

    /**
     * As {@link #addAll}, for objects read from rows that a collection of this layout stored with the encoding this
     * one has now (an export's {@code _object} column): after each object, {@code row} gives the bytes of its one
     * BLOB column, which are stored as they are instead of serialising the object again.
     */
    public void addAllStored(Iterable<? extends O> objects, java.util.function.Supplier<byte[]> row) {
        addAll(objects, Given.STORED_ROWS, row);
    }

    /**
     * Adds every object {@code objects} yields, each coming {@code with} what {@code row} gives after it; objects
     * that come with more than themselves are written out before returning, while the load knows what they came with.
     */
    private void addAll(Iterable<? extends O> objects, Given with, java.util.function.Supplier<byte[]> row) {
        check();
        try {
            givenWith = with;
            // objects buffered before came without stored rows: their chunk is serialised as a whole
            storedChunk = with == Given.STORED_ROWS && chunk.isEmpty() ? new ArrayList<>() : null;
            for (O o : objects) {
                put(o, row == null ? null : row.get());
            }
            if (with != Given.OBJECTS) {
                flush();
            }
        } catch (RuntimeException | Error e) {
            throw abort(e);
        } finally {
            givenWith = Given.OBJECTS;
            storedChunk = null;
        }
    }

    /** What must also hold, checked on the load's connection, for {@link #insertObjectRows} to insert. */
    @FunctionalInterface
    public interface InsertCheck {
        boolean holds(PooledConnection c) throws SQLException;
    }

    /**
     * Inserts the load's object rows with one SQL statement, in the load's transaction, when the load has taken
     * nothing yet, is not sliced, the collection holds no object and then {@code check} holds; the same objects are
     * then given to {@link #addAllIndexed}, which writes their index rows. The statement must insert each key once,
     * with the row the layout would write for its object.
     *
     * @param check what the statement needs of its source (that it gives each key once, say); it runs only when the
     *              rest holds
     * @return whether the rows were inserted; when not, nothing was done and the objects go to a load as usual
     */
    public boolean insertObjectRows(String insert, InsertCheck check) {
        check();
        if (started || sliceSize > 0 || !chunk.isEmpty()) {
            return false;
        }
        try {
            PooledConnection c = transaction();
            try (java.sql.Statement s = c.connection().createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM " + schema.table)) {
                rs.next();
                if (rs.getLong(1) > 0) {
                    return false;
                }
            }
            if (!check.holds(c)) {
                return false;
            }
            try (java.sql.Statement s = c.connection().createStatement()) {
                // closing the database cancels it, as it does the load's other statements
                table.database().running().started(s);
                try {
                    s.execute(insert);
                } finally {
                    table.database().running().finished(s);
                }
            }
            started = true;
            return true;
        } catch (SQLException e) {
            QuackException closed = table.database().running().cancelledByClose("The bulk load", e);
            throw abort(closed != null ? closed : Failures.wrap("Bulk loading collection '" + schema.name + "'",
                    insert, e));
        } catch (RuntimeException | Error e) {
            throw abort(e);
        }
    }

    /**
     * The objects whose rows {@link #insertObjectRows} inserted, each once: their index rows are written, and the
     * object cache learns their keys, as for any object of the load.
     */
    public void addAllIndexed(Iterable<? extends O> objects) {
        addAll(objects, Given.ROWS_INSERTED, null);
    }

    /**
     * Adds every object of the Parquet files at {@code path} ({@code ParquetImport.read}); a column check that
     * fails leaves the load as it was, any later failure fails the whole load.
     */
    public void addParquet(java.nio.file.Path path) {
        check();
        io.quackjvm.api.internal.answer.ParquetImport.read(table, this, path);
    }

    /**
     * Makes the load a sliced one: every {@code objects} objects given to it are committed as one slice, with the
     * count committed so far, in the slice's transaction. When an earlier sliced load of the collection did not
     * reach its final {@link #commit()}, this one resumes it: the objects that load committed are skipped, so that
     * a load restarted from the start of its input goes on after its last committed slice.
     *
     * @return how many objects an earlier run committed (the ones this load skips), 0 for a new load
     */
    public long commitEvery(long objects) {
        check();
        if (objects < 1) {
            throw new IllegalArgumentException("commitEvery(" + objects + ") must be 1 or more");
        }
        if (started || sliceSize > 0) {
            throw new IllegalStateException("commitEvery must be called once, before the first object is added");
        }
        sliceSize = objects;
        boolean any = statements.queryLong(null, "SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND "
                + "database_name = current_database()", java.util.List.of(LOADS), io.quackjvm.api.Operation.LOOKUP) > 0;
        long committed = !any ? 0 : statements.queryLong(null, "SELECT coalesce(max(committed), 0) FROM " + LOADS
                + " WHERE collection = ?", java.util.List.of(schema.name), io.quackjvm.api.Operation.LOOKUP);
        resumedAfter = committed;
        toSkip = committed;
        return committed;
    }

    /**
     * Buffers one object, and writes the chunk or commits the slice it fills.
     *
     * @param stored the bytes of the object's stored row, when the load takes them ({@link #addAllStored})
     */
    private void put(O object, byte[] stored) {
        if (object == null) {
            throw new NullPointerException("A bulk writer cannot store null");
        }
        started = true;
        given++;
        if (toSkip > 0) {
            toSkip--; // committed by the run this one resumes
            return;
        }
        int before = chunk.size();
        if (tracker == null) {
            tracker = progress.start("bulk load", -1);
        }
        if (promisedNew) {
            writes.putNew(chunk, object);
        } else {
            chunk.put(schema.keyOf(object), object);
        }
        if (storedChunk != null) {
            if (chunk.size() > before) {
                storedChunk.add(stored);
            } else {
                storedChunk = null; // a key given twice replaced an object: row order no longer says which bytes
            }
        }
        if (chunk.size() >= chunkRows) {
            flush();
        }
        if (sliceSize > 0 && ++inSlice >= sliceSize) {
            inSlice = 0;
            commitTransaction(false);
        }
    }

    /** Writes the buffered chunk into the load's transaction, starting it (and taking the write lock) if needed. */
    private void flush() {
        if (chunk.isEmpty()) {
            return;
        }
        Map<A, O> batch = chunk;
        // a load that fills one chunk is a big one: the next chunks are sized for a full chunk from the start
        chunk = new LinkedHashMap<>(chunkRows / 3 * 4 + 4);
        List<byte[]> stored = storedChunk;
        storedChunk = givenWith == Given.STORED_ROWS ? new ArrayList<>(chunkRows) : null;
        PooledConnection c = transaction();
        // The object cache must not keep (or take in) the objects these keys had before the load commits.
        @SuppressWarnings("unchecked")
        ObjectCache.Write<A> marks = (ObjectCache.Write<A>) scope.cacheWrite();
        marks.touch(batch.keySet());
        EncodedChunk<A, O> encoded;
        try {
            encoded = writes.appends().encode(batch, stored, givenWith == Given.ROWS_INSERTED);
        } catch (SQLException e) {
            throw Failures.wrap("Bulk loading collection '" + schema.name + "'", null, e);
        }
        awaitPending();
        if (appender == null) {
            appender = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "quackjvm-bulk-" + schema.name);
                t.setDaemon(true);
                return t;
            });
        }
        pendingRows = batch.size();
        LoadAppenders open = appenders;
        pending = appender.submit(() -> {
            try {
                writes.appends().appendEncoded(c, encoded, promisedNew, open);
            } catch (SQLException e) {
                throw Failures.wrap("Bulk loading collection '" + schema.name + "'", null, e);
            }
            return null;
        });
    }

    /** The load's transaction, begun (taking the write lock) if needed. */
    private PooledConnection transaction() {
        if (scope == null) {
            statements.checkNoBulkLoad("Starting a bulk load");
            RequestScope s = new RequestScope(table);
            s.writeConnection(io.quackjvm.api.Operation.BULK_WRITE);
            scope = s;
            appenders = new LoadAppenders();
            statements.bulkLoadStarted();
        }
        return scope.writeConnection();
    }

    /** Waits for the chunk in flight; rethrows its failure. */
    private void awaitPending() {
        Future<?> f = pending;
        if (f == null) {
            return;
        }
        pending = null;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the chunk must end before the transaction can be used again
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        tracker.advance(pendingRows);
    }

    /** Closes the transaction's appenders and checks that it was not aborted by one of them, before its commit. */
    private void finishAppenders() {
        LoadAppenders a = appenders;
        appenders = null;
        if (a == null) {
            return;
        }
        try {
            a.finish(scope.writeConnection());
        } catch (SQLException e) {
            if (promisedNew && Failures.isDuplicateKey(e)) {
                throw writes.appends().promiseBroken(java.util.Map.of(), e);
            }
            throw Failures.wrap("Bulk loading collection '" + schema.name + "'", null, e);
        }
    }

    /** Waits for the chunk in flight, ignoring its failure (the load is being rolled back), and ends the thread. */
    private void stopAppender() {
        try {
            awaitPending();
        } catch (RuntimeException | Error ignored) {
            // already failing or closing
        } finally {
            if (appender != null) {
                appender.shutdown();
                appender = null;
            }
        }
    }

    /**
     * Makes everything added since the last commit visible at once, object and index tables together, and
     * releases the write lock. The load may then go on: later objects start a new transaction.
     */
    public void commit() {
        check();
        commitTransaction(true);
        finishTracker();
    }

    /**
     * Commits the open transaction; for a sliced load, with how far it got in the same transaction (a slice), or,
     * when {@code last}, with its row of {@link #LOADS} removed: a sliced load that ends is not resumed.
     */
    private void commitTransaction(boolean last) {
        try {
            flush();
            awaitPending();
            finishAppenders();
            if (sliceSize > 0) {
                if (scope == null) {
                    RequestScope s = new RequestScope(table);
                    s.writeConnection(io.quackjvm.api.Operation.BULK_WRITE);
                    scope = s;
                    statements.bulkLoadStarted();
                }
                recordProgress(scope.writeConnection(), last);
            }
        } catch (SQLException e) {
            throw abort(Failures.wrap("Recording how far the sliced bulk load of collection '" + schema.name
                    + "' got", null, e));
        } catch (RuntimeException | Error e) {
            throw abort(e);
        }
        stopAppender();
        RequestScope s = scope;
        scope = null;
        if (s != null) {
            statements.bulkLoadEnded();
            try {
                s.finish();
            } catch (RuntimeException e) {
                unusable = "its commit failed (" + e.getMessage() + ")";
                finishTracker();
                throw e;
            }
        }
    }

    private void recordProgress(PooledConnection c, boolean last) throws SQLException {
        try (java.sql.Statement st = c.connection().createStatement()) {
            st.execute(LOADS_DDL);
        }
        String sql = last ? "DELETE FROM " + LOADS + " WHERE collection = ?"
                : "INSERT OR REPLACE INTO " + LOADS + " VALUES (?, ?)";
        try (java.sql.PreparedStatement ps = c.connection().prepareStatement(sql)) {
            ps.setString(1, schema.name);
            if (!last) {
                ps.setLong(2, given);
            }
            ps.executeUpdate();
        }
    }

    /** Objects an earlier run of this sliced load committed, which this one skipped or skips. */
    public long resumedAfter() {
        return resumedAfter;
    }

    /** Discards everything not committed (rolling back the load's transaction) and ends the load. Idempotent. */
    @Override
    public void close() {
        if (unusable != null && scope == null) {
            return;
        }
        if (owner != null && owner != Thread.currentThread() && scope != null) {
            throw new IllegalStateException("A bulk writer must be closed on the thread that used it ("
                    + owner.getName() + "), which holds the collection's write lock");
        }
        chunk = new LinkedHashMap<>();
        if (unusable == null) {
            unusable = "it was closed";
        }
        rollback();
        finishTracker();
    }

    private void check() {
        if (owner == null) {
            owner = Thread.currentThread();
        } else if (owner != Thread.currentThread()) {
            throw new IllegalStateException("A bulk writer belongs to the thread that first used it ("
                    + owner.getName() + "); use one writer per thread");
        }
        if (unusable != null) {
            throw new IllegalStateException("This bulk writer of collection '" + schema.name + "' cannot be used: "
                    + unusable + ". Nothing it held uncommitted was stored; open a new one with bulkWriter()");
        }
        table.database().checkOpen();
    }

    /** Rolls the load back after a failure and returns the failure to throw. */
    private RuntimeException abort(Throwable failure) {
        unusable = "an earlier call failed (" + failure + ")";
        chunk = new LinkedHashMap<>();
        try {
            rollback();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        finishTracker();
        if (failure instanceof Error error) {
            throw error;
        }
        if (!(failure instanceof PersistenceClosedException)) {
            // the database's close() rolled the load back and closed its appenders under it
            PersistenceClosedException closed = table.database().running().cancelledByClose(
                    "This bulk load of collection '" + schema.name + "'", failure);
            if (closed != null) {
                return closed;
            }
        }
        return (RuntimeException) failure;
    }

    private void rollback() {
        stopAppender();
        LoadAppenders a = appenders;
        appenders = null;
        if (a != null) {
            try {
                a.close();
            } catch (SQLException | RuntimeException ignored) {
                // the transaction is rolled back: what the appenders held is discarded with it
            }
        }
        RequestScope s = scope;
        scope = null;
        if (s == null) {
            return;
        }
        statements.bulkLoadEnded();
        s.fail();
        try {
            s.finish();
        } catch (PersistenceClosedException e) {
            // the database was closed: its close() rolled the load back already
        }
    }

    private void finishTracker() {
        if (tracker != null) {
            tracker.finish();
            tracker = null;
        }
    }
}
