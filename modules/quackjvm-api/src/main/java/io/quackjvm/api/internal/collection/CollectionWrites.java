package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.database.Writers;

import com.googlecode.cqengine.query.option.FlagsEnabled;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBFlags;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every change to one collection's objects: add (replacing a stored object with the same key unless it is
 * equal), remove (only what is stored and equal, as on the heap) and clear, each in the request's transaction
 * through {@link CollectionStatements#write}, so that a failed write rolls back whole. Small batches go through
 * prepared statements, large ones through DuckDB's Appender with the transaction verified after it. It keeps the
 * attached index tables in step through {@link CollectionIndexes} but never creates or drops them, and it never
 * reads objects for a caller. Thread-safe.
 */
public final class CollectionWrites<O, A> {

    private final CollectionSchema<O, A> schema;
    private final CollectionStatements statements;
    private final CollectionIndexes<O, A> indexes;
    private final KeyBatches<O, A> batches;
    private final int appenderThreshold;
    private final int stagingChunkRows;
    private final ProgressReporter progress;

    CollectionWrites(CollectionSchema<O, A> schema, CollectionStatements statements, CollectionIndexes<O, A> indexes,
                     int appenderThreshold, int stagingChunkRows, ProgressReporter progress) {
        this.schema = schema;
        this.progress = progress;
        this.statements = statements;
        this.indexes = indexes;
        this.batches = new KeyBatches<>(schema, appenderThreshold);
        this.appenderThreshold = appenderThreshold;
        this.stagingChunkRows = stagingChunkRows;
    }

    /**
     * Adds objects, replacing a stored object with the same key unless it is equal. Returns whether anything
     * changed. Small batches go through prepared statements, large ones through DuckDB's Appender.
     */
    public boolean addAll(Collection<? extends O> objects, QueryOptions options) {
        if (objects.isEmpty()) {
            return false;
        }
        if (FlagsEnabled.isFlagEnabled(options, DuckDBFlags.BULK_IMPORT)) {
            return statements.write(options, "Bulk importing " + objects.size() + " objects", c -> {
                Map<A, O> byKey = new LinkedHashMap<>();
                for (O o : objects) {
                    putNew(byKey, o);
                }
                ProgressReporter.Tracker tracker = progress.start("addAll", byKey.size());
                try {
                    appendChunk(c, byKey, true, tracker);
                } finally {
                    tracker.finish();
                }
                return true;
            });
        }
        Map<A, O> byKey = new LinkedHashMap<>();
        for (O o : objects) {
            byKey.put(schema.keyOf(o), o);
        }
        return statements.write(options, "Adding " + byKey.size() + " objects", (c, marks) -> {
            marks.touch(byKey.keySet());
            return byKey.size() <= appenderThreshold ? addSmall(c, byKey) : addLarge(c, byKey);
        });
    }

    /**
     * Adds one object to the object store (CQEngine's {@code add}, and each object of an {@code Iterable} that is
     * not a {@code Collection}). When it is the first write of its request, a new key, the common case, costs one
     * plain {@code INSERT} (with the object's index rows) instead of a lookup of the stored object first: DuckDB
     * refuses a stored key without storing anything, and then the transaction, which held nothing else, is begun
     * again and the ordinary path compares and replaces. ({@code INSERT ... ON CONFLICT DO NOTHING} would say the
     * same, but costs 3-4x a plain {@code INSERT}: benchmarks/results/archive/single-add/.) Either way the write belongs to the
     * request's transaction, which commits when CQEngine ends the request.
     */
    public boolean addOne(O object, QueryOptions options) {
        A key = schema.keyOf(object);
        // The object cache needs no marks here: this path stores only a key that is not stored (DuckDB refuses a
        // stored one), and the cache holds only stored objects; a key removed earlier was dropped by that removal.
        if (!indexes.hasUnattached()) {
            Boolean added = statements.firstWrite(options, "Adding an object", c -> {
                PreparedStatement statement = c.prepare(schema.columns.sql().insert());
                try {
                    schema.keyType.bind(statement, 1, key);
                    schema.layout.write(object, new Writers.StatementRow(statement, 2));
                    statement.executeUpdate();
                } finally {
                    c.recycle(statement);
                }
                indexes.insertRows(c, key, object);
                return Boolean.TRUE;
            });
            if (added != null) {
                return added;
            }
        }
        return addAll(List.of(object), options);
    }

    /**
     * Keys {@code o} into a load whose keys were promised new ({@link DuckDBFlags#BULK_IMPORT}): a key that comes
     * twice breaks the promise.
     */
    void putNew(Map<A, O> byKey, O o) {
        A key = schema.keyOf(o);
        if (byKey.putIfAbsent(key, o) != null) {
            throw new QuackException("Bulk import into collection '" + schema.name + "' refused: key " + key
                    + " appears twice in the load, but DuckDBFlags.BULK_IMPORT promises every key is new; nothing of "
                    + "the load was stored. Load without the flag to let the last object of a key win.");
        }
    }

    private boolean addSmall(PooledConnection c, Map<A, O> byKey) throws SQLException {
        indexes.markUnattachedStale(c);
        Map<A, O> stored = new HashMap<>();
        batches.forStoredObjects(c, byKey.keySet(), stored::put);
        List<A> replaced = new ArrayList<>();
        boolean modified = false;
        for (Map.Entry<A, O> e : byKey.entrySet()) {
            O old = stored.get(e.getKey());
            if (old == null) {
                PreparedStatement statement = c.prepare(schema.columns.sql().insert());
                try {
                    schema.keyType.bind(statement, 1, e.getKey());
                    schema.layout.write(e.getValue(), new Writers.StatementRow(statement, 2));
                    statement.executeUpdate();
                } finally {
                    c.recycle(statement);
                }
                indexes.insertRows(c, e.getKey(), e.getValue());
                modified = true;
                continue;
            }
            if (e.getValue().equals(old)) {
                continue;
            }
            PreparedStatement update = c.prepare(schema.columns.sql().updateByKey());
            try {
                Writers.StatementRow row = new Writers.StatementRow(update, 1);
                schema.layout.write(e.getValue(), row);
                schema.keyType.bind(update, row.next(), e.getKey());
                update.executeUpdate();
            } finally {
                c.recycle(update);
            }
            replaced.add(e.getKey());
            modified = true;
        }
        // The replaced objects' index rows go with them (CQEngine's SQLite indexes lose them here).
        deleteByKeys(c, replaced, false);
        for (A key : replaced) {
            indexes.insertRows(c, key, byKey.get(key));
        }
        return modified;
    }

    private boolean addLarge(PooledConnection c, Map<A, O> byKey) throws SQLException {
        int n = byKey.size();
        ProgressReporter.Tracker tracker = progress.start("addAll", n);
        try {
            return appendChunk(c, byKey, false, tracker);
        } finally {
            tracker.finish();
        }
    }

    /**
     * Stores a batch of objects through the Appender, in the connection's open transaction: the path of a large
     * {@code addAll}, of {@link DuckDBFlags#BULK_IMPORT} and of each chunk of a {@link BulkLoad}. Unless
     * {@code promisedNew}, stored objects with the batch's keys are looked for first (equal ones are left alone
     * and dropped from {@code byKey}, the others are replaced), but only when the table may hold one of the keys:
     * when no stored key is at or above the batch's smallest key (an empty table; ascending keys loaded chunk
     * after chunk), the lookup is skipped. With {@code promisedNew}, a key that is stored fails the batch with a
     * {@link QuackException} naming it and the flag; the caller rolls the transaction back.
     *
     * @return whether anything was stored
     */
    boolean appendChunk(PooledConnection c, Map<A, O> byKey, boolean promisedNew, ProgressReporter.Tracker tracker)
            throws SQLException {
        indexes.markUnattachedStale(c);
        if (!promisedNew) {
            replaceStored(c, byKey);
        }
        if (byKey.isEmpty()) {
            return false;
        }
        try {
            appendNew(c, byKey, tracker);
        } catch (SQLException e) {
            if (promisedNew && Failures.isDuplicateKey(e)) {
                throw promiseBroken(byKey, e);
            }
            throw e;
        }
        return true;
    }

    /**
     * Keys of {@code byKey} that may be stored already: an equal stored object is left alone (its key leaves
     * {@code byKey}), a different one is deleted so that the caller appends its replacement.
     */
    private void replaceStored(PooledConnection c, Map<A, O> byKey) throws SQLException {
        if (!mayHoldAny(c, byKey.keySet())) {
            return;
        }
        List<A> replaced = new ArrayList<>();
        batches.forStoredObjects(c, byKey.keySet(), (key, stored) -> {
            if (stored.equals(byKey.get(key))) {
                byKey.remove(key);
            } else {
                replaced.add(key);
            }
        });
        deleteKeys(c, replaced);
    }

    /** Encodes a chunk of a bulk load for {@link #appendEncoded}: rows and index values, ready to append. */
    EncodedChunk<A, O> encode(Map<A, O> byKey) throws SQLException {
        return new EncodedChunk<>(schema, indexes.all(), byKey);
    }

    /**
     * {@link #appendChunk} for a chunk encoded ahead ({@link BulkLoad}'s pipeline): the same appends, replaying the
     * recorded rows instead of serialising, through the transaction's long-lived {@code appenders}, and the replace
     * check only when a key of the chunk may be stored already ({@link LoadAppenders#mayClash}).
     */
    void appendEncoded(PooledConnection c, EncodedChunk<A, O> chunk, boolean promisedNew, LoadAppenders appenders)
            throws SQLException {
        indexes.markUnattachedStale(c);
        Map<A, O> byKey = chunk.byKey;
        try {
            if (!promisedNew && appenders.mayClash(c, schema, chunk)) {
                replaceStored(c, byKey);
            }
            if (byKey.isEmpty()) {
                appenders.appended(chunk);
                return;
            }
            boolean filtered = byKey.size() != chunk.rows();
            DuckDBAppender appender = appenders.appender(c, schema.name);
            Writers.AppenderRow row = new Writers.AppenderRow(appender);
            for (int j = 0; j < chunk.rows(); j++) {
                if (filtered && !byKey.containsKey(chunk.keys[j])) {
                    continue;
                }
                appender.beginRow();
                chunk.replay(j, row);
                appender.endRow();
            }
            appender.flush();
            for (int i = 0; i < chunk.indexes.size(); i++) {
                boolean covering = chunk.indexes.get(i).covering();
                DuckDBAppender index = appenders.appender(c, chunk.indexes.get(i).name());
                Writers.AppenderRow indexRow = new Writers.AppenderRow(index);
                Object[] values = chunk.indexValues[i];
                int[] start = chunk.indexStart[i];
                for (int j = 0; j < chunk.rows(); j++) {
                    if (filtered && !byKey.containsKey(chunk.keys[j])) {
                        continue;
                    }
                    for (int k = start[j]; k < start[j + 1]; k++) {
                        Object v = values[k];
                        index.beginRow();
                        @SuppressWarnings("unchecked") A key = (A) chunk.keys[j];
                        schema.keyType.write(indexRow, key);
                        indexRow.putObject(v);
                        if (covering) {
                            chunk.replayCopy(j, indexRow);
                        }
                        index.endRow();
                    }
                }
                index.flush();
            }
            appenders.appended(chunk);
        } catch (SQLException e) {
            if (promisedNew && Failures.isDuplicateKey(e)) {
                throw promiseBroken(byKey, e);
            }
            throw e;
        }
    }

    /** Appends objects whose keys are not stored, then their index rows, each checked after its Appender. */
    private void appendNew(PooledConnection c, Map<A, O> byKey, ProgressReporter.Tracker tracker)
            throws SQLException {
        DuckDBConnection duck = c.connection().unwrap(DuckDBConnection.class);
        try (DuckDBAppender appender = duck.createAppender(DuckDBConnection.DEFAULT_SCHEMA, schema.name)) {
            Writers.AppenderRow row = new Writers.AppenderRow(appender);
            int inChunk = 0;
            for (Map.Entry<A, O> e : byKey.entrySet()) {
                appender.beginRow();
                schema.keyType.write(row, e.getKey());
                schema.layout.write(e.getValue(), row);
                appender.endRow();
                if (++inChunk == stagingChunkRows) {
                    appender.flush();
                    inChunk = 0;
                    if (tracker != null) {
                        tracker.advance(stagingChunkRows);
                    }
                }
            }
            appender.flush();
            if (tracker != null && inChunk > 0) {
                tracker.advance(inChunk);
            }
        }
        // Before the index tables' Appenders: one created in an aborted transaction fails without saying why.
        verifyTransaction(c);
        indexes.appendRows(c, byKey);
        verifyTransaction(c);
    }

    /**
     * Whether the object table (as this transaction sees it) may hold one of {@code keys}: whether it holds any
     * key at or above their smallest. Keys are stored in a form whose SQL order is Java's {@code compareTo}
     * ({@link KeyType}), and DuckDB answers from its row groups' minima and maxima without reading them when the
     * answer is no.
     */
    @SuppressWarnings("unchecked")
    private boolean mayHoldAny(PooledConnection c, Collection<A> keys) throws SQLException {
        A min = null;
        for (A k : keys) {
            if (min == null || ((Comparable<Object>) k).compareTo(min) < 0) {
                min = k;
            }
        }
        PreparedStatement p = c.prepare("SELECT count(*) FROM (SELECT 1 FROM " + schema.table + " WHERE "
                + CollectionSchema.KEY + " >= ? LIMIT 1)");
        try {
            schema.keyType.bind(p, 1, min);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        } finally {
            c.recycle(p);
        }
    }

    /**
     * The failure of a {@link DuckDBFlags#BULK_IMPORT} load whose batch met a stored key: names the key, found
     * among the batch's keys on a connection of its own (the load's transaction is aborted), or as DuckDB
     * reported it (in its stored form) when the clash was with an earlier chunk of the same load.
     */
    QuackException promiseBroken(Map<A, O> byKey, SQLException cause) {
        Object key = null;
        try (PooledConnection other = schema.db.borrow()) {
            List<A> found = new ArrayList<>();
            batches.forStoredObjects(other, byKey.keySet(), (k, stored) -> found.add(k));
            if (!found.isEmpty()) {
                key = found.get(0);
            }
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
        }
        String stored = Failures.duplicateKey(cause);
        return new QuackException("Bulk import into collection '" + schema.name + "' refused: "
                + (key != null ? "key " + key + " is already stored"
                : "a key (stored form " + (stored == null ? "?" : stored) + ") was already added earlier in this load")
                + ", but DuckDBFlags.BULK_IMPORT promises every key is new; nothing of the load was stored. Load "
                + "without the flag to replace stored objects.", cause);
    }

    /**
     * DuckDB's Appender reports some failures (a duplicate key) only by aborting the transaction, after which a
     * commit silently applies nothing; a statement run now turns that into an exception.
     */
    private static void verifyTransaction(PooledConnection c) throws SQLException {
        try (Statement s = c.connection().createStatement()) {
            s.execute("SELECT 1");
        }
    }

    /**
     * Deletes the rows of a small batch of keys from every index table, and from the object table too when
     * {@code objects} is set: one statement per table.
     */
    private void deleteByKeys(PooledConnection c, List<A> keys, boolean objects) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        String where = " WHERE " + CollectionSchema.KEY + " IN " + KeyBatches.parameters(keys.size());
        List<String> tables = new ArrayList<>();
        if (objects) {
            tables.add(schema.table);
        }
        tables.addAll(indexes.sqlNames());
        for (String t : tables) {
            PreparedStatement delete = c.prepare("DELETE FROM " + t + where);
            try {
                batches.bind(delete, keys);
                delete.executeUpdate();
            } finally {
                c.recycle(delete);
            }
        }
    }

    /** Deletes objects and their index rows by key: an {@code IN} list for a few, the staging table for many. */
    private void deleteKeys(PooledConnection c, List<A> keys) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        indexes.markUnattachedStale(c);
        if (batches.small(keys.size())) {
            deleteByKeys(c, keys, true);
            return;
        }
        batches.stage(c, keys);
        String staged = " WHERE " + CollectionSchema.KEY + " IN (SELECT " + CollectionSchema.KEY + " FROM "
                + batches.stage() + ")";
        try (Statement s = c.connection().createStatement()) {
            s.executeUpdate("DELETE FROM " + schema.table + staged);
            for (String index : indexes.sqlNames()) {
                s.executeUpdate("DELETE FROM " + index + staged);
            }
        }
    }

    /**
     * Removes objects that are stored: an object whose key is stored but which is not {@code equals} to the stored
     * one is left alone, as an on-heap collection would.
     */
    public boolean removeAll(Collection<?> objects, QueryOptions options, boolean throughStore) {
        Map<A, Object> byKey = new LinkedHashMap<>();
        for (Object o : objects) {
            A key = schema.keyOrNull(o);
            if (key != null) {
                byKey.put(key, o);
            }
        }
        if (byKey.isEmpty()) {
            return false;
        }
        return statements.write(options, "Removing " + byKey.size() + " objects", throughStore ? objects : null,
                (c, marks) -> {
            marks.touch(byKey.keySet());
            List<A> doomed = new ArrayList<>();
            batches.forStoredObjects(c, byKey.keySet(), (key, stored) -> {
                if (stored.equals(byKey.get(key))) {
                    doomed.add(key);
                }
            });
            deleteKeys(c, doomed);
            return !doomed.isEmpty();
        });
    }

    public void clear(QueryOptions options) {
        statements.write(options, "Clearing", (c, marks) -> {
            marks.touchAll();
            try (Statement s = c.connection().createStatement()) {
                s.executeUpdate("DELETE FROM " + schema.table);
                indexes.markUnattachedStale(c);
                for (String index : indexes.sqlNames()) {
                    s.executeUpdate("DELETE FROM " + index);
                }
            }
            return null;
        });
    }
}
