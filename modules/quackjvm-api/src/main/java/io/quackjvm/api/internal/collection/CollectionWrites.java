package io.quackjvm.api.internal.collection;

import io.quackjvm.api.Operation;
import io.quackjvm.api.internal.database.Writers;

import com.googlecode.cqengine.query.option.FlagsEnabled;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBFlags;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;

import java.sql.PreparedStatement;
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
    private final ProgressReporter progress;
    private final CollectionAppends<O, A> appends;

    CollectionWrites(CollectionSchema<O, A> schema, CollectionStatements statements, CollectionIndexes<O, A> indexes,
                     int appenderThreshold, int stagingChunkRows, ProgressReporter progress) {
        this.schema = schema;
        this.progress = progress;
        this.statements = statements;
        this.indexes = indexes;
        this.batches = new KeyBatches<>(schema, appenderThreshold);
        this.appenderThreshold = appenderThreshold;
        this.appends = new CollectionAppends<>(schema, indexes, batches, stagingChunkRows, this);
    }

    /** The Appender paths: large batches and the chunks of a bulk load. */
    CollectionAppends<O, A> appends() {
        return appends;
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
            return statements.write(Operation.ADD, options, "Bulk importing " + objects.size() + " objects", c -> {
                Map<A, O> byKey = new LinkedHashMap<>();
                for (O o : objects) {
                    putNew(byKey, o);
                }
                ProgressReporter.Tracker tracker = progress.start("addAll", byKey.size());
                try {
                    appends.appendChunk(c, byKey, true, tracker);
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
        return statements.write(Operation.ADD, options, "Adding " + byKey.size() + " objects", null, (c, marks) -> {
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
            return appends.appendChunk(c, byKey, false, tracker);
        } finally {
            tracker.finish();
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
    void deleteKeys(PooledConnection c, List<A> keys) throws SQLException {
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
        return statements.write(Operation.REMOVE, options, "Removing " + byKey.size() + " objects", throughStore ? objects : null,
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
        statements.write(Operation.REMOVE, options, "Clearing", null, (c, marks) -> {
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
