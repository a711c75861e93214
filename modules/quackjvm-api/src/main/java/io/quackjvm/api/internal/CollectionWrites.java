package io.quackjvm.api.internal;

import com.googlecode.cqengine.query.option.QueryOptions;
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
final class CollectionWrites<O, A> {

    private final CollectionSchema<O, A> schema;
    private final CollectionStatements statements;
    private final CollectionIndexes<O, A> indexes;
    private final KeyBatches<O, A> batches;
    private final int appenderThreshold;
    private final int stagingChunkRows;

    CollectionWrites(CollectionSchema<O, A> schema, CollectionStatements statements, CollectionIndexes<O, A> indexes,
                     int appenderThreshold, int stagingChunkRows) {
        this.schema = schema;
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
    boolean addAll(Collection<? extends O> objects, QueryOptions options) {
        if (objects.isEmpty()) {
            return false;
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

    private boolean addSmall(PooledConnection c, Map<A, O> byKey) throws SQLException {
        indexes.markUnattachedStale(c);
        Map<A, O> stored = new HashMap<>();
        batches.forStoredObjects(c, byKey.keySet(), stored::put);
        List<A> replaced = new ArrayList<>();
        boolean modified = false;
        for (Map.Entry<A, O> e : byKey.entrySet()) {
            O old = stored.get(e.getKey());
            if (old == null) {
                PreparedStatement statement = c.prepare(schema.sql().insert());
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
            PreparedStatement update = c.prepare(schema.sql().updateByKey());
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
        indexes.markUnattachedStale(c);
        if (!tableEmpty(c)) {
            // Keys already stored: equal objects are left alone, the others are replaced (deleted, then appended).
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
        if (byKey.isEmpty()) {
            return false;
        }
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
                }
            }
        }
        // Before the index tables' Appenders: one created in an aborted transaction fails without saying why.
        verifyTransaction(c);
        indexes.appendRows(c, byKey);
        verifyTransaction(c);
        return true;
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

    private boolean tableEmpty(PooledConnection c) throws SQLException {
        try (Statement s = c.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT 1 FROM " + schema.table + " LIMIT 1)")) {
            rs.next();
            return rs.getLong(1) == 0;
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
    boolean removeAll(Collection<?> objects, QueryOptions options) {
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
        return statements.write(options, "Removing " + byKey.size() + " objects", (c, marks) -> {
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

    void clear(QueryOptions options) {
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
