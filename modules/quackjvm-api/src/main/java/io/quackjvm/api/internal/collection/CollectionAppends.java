package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.database.Writers;

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
import java.util.List;
import java.util.Map;

/**
 * The Appender paths of one collection's writes: a large {@code addAll}, a {@link DuckDBFlags#BULK_IMPORT} batch and
 * each chunk of a {@link BulkLoad}, in the caller's open transaction. Objects whose keys may be stored already are
 * looked for first (equal ones are left alone, others replaced through {@link CollectionWrites#deleteKeys}); the
 * transaction is verified after each Appender, since DuckDB reports some of their failures only by aborting it.
 * Thread-safe.
 */
final class CollectionAppends<O, A> {

    private final CollectionSchema<O, A> schema;
    private final CollectionIndexes<O, A> indexes;
    private final KeyBatches<O, A> batches;
    private final int stagingChunkRows;
    private final CollectionWrites<O, A> writes;

    CollectionAppends(CollectionSchema<O, A> schema, CollectionIndexes<O, A> indexes, KeyBatches<O, A> batches,
                      int stagingChunkRows, CollectionWrites<O, A> writes) {
        this.schema = schema;
        this.indexes = indexes;
        this.batches = batches;
        this.stagingChunkRows = stagingChunkRows;
        this.writes = writes;
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
        writes.deleteKeys(c, replaced);
    }

    /** Encodes a chunk of a bulk load for {@link #appendEncoded}: rows and index values, ready to append. */
    EncodedChunk<A, O> encode(Map<A, O> byKey, List<byte[]> stored, boolean objectsInserted) throws SQLException {
        return new EncodedChunk<>(schema, indexes.all(), byKey, stored, objectsInserted);
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
            // inserted object rows went into a collection that held none, with no key twice: nothing to replace
            if (!chunk.objectsInserted && !promisedNew && appenders.mayClash(c, schema, chunk)) {
                replaceStored(c, byKey);
            }
            if (byKey.isEmpty()) {
                appenders.appended(chunk);
                return;
            }
            boolean filtered = byKey.size() != chunk.rows();
            if (!chunk.objectsInserted) {
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
            }
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

}
