package io.quackjvm.api.internal.collection;

import io.quackjvm.api.spi.PooledConnection;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one transaction of a {@link BulkLoad} keeps from chunk to chunk: the DuckDB Appender of each table it
 * appends to (the object table and each index table), opened with the first chunk and flushed after each, and the
 * keys it may meet. A chunk needs the replace-existing check only when one of its keys may already be in the
 * object table: when its smallest key is not above both the largest key stored before the load (read once, before
 * the first append) and the largest key of the earlier chunks. So a load of ascending keys, or of keys above
 * everything stored, runs no statement between its appends (benchmarks/results/archive/bulk/shared-2026-12-01-bulk6.md). Used by
 * one thread at a time: the load's appender thread, then the loading thread at commit or rollback.
 */
final class LoadAppenders {

    private final Map<String, DuckDBAppender> open = new LinkedHashMap<>();
    private boolean storedRead;
    private Object storedMax;
    private Object loadedMax;

    /** The appender of {@code table} in this transaction, opened now if it is the first use. */
    DuckDBAppender appender(PooledConnection c, String table) throws SQLException {
        DuckDBAppender a = open.get(table);
        if (a == null) {
            // An appender created in an aborted transaction fails without saying why: make the abort say it.
            verifyTransaction(c);
            a = c.connection().unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, table);
            open.put(table, a);
        }
        return a;
    }

    /**
     * Whether {@code chunk} may hold a key that is stored already (before the load, or by an earlier chunk of
     * it), by the keys' {@code compareTo}, whose order is the stored keys' SQL order ({@link KeyType}).
     */
    boolean mayClash(PooledConnection c, CollectionSchema<?, ?> schema, EncodedChunk<?, ?> chunk) throws SQLException {
        if (!storedRead) {
            try (Statement s = c.connection().createStatement();
                 ResultSet rs = s.executeQuery("SELECT max(" + CollectionSchema.KEY + ") FROM " + schema.table)) {
                rs.next();
                storedMax = rs.getObject(1) == null ? null : schema.keyType.read(rs, 1);
            }
            storedRead = true;
        }
        if (chunk.minKey == null) {
            return false;
        }
        return (storedMax != null && EncodedChunk.compare(chunk.minKey, storedMax) <= 0)
                || (loadedMax != null && EncodedChunk.compare(chunk.minKey, loadedMax) <= 0);
    }

    /** Records that {@code chunk}'s rows are appended (or were stored equal): its keys are in the table now. */
    void appended(EncodedChunk<?, ?> chunk) {
        if (chunk.maxKey != null && (loadedMax == null || EncodedChunk.compare(chunk.maxKey, loadedMax) > 0)) {
            loadedMax = chunk.maxKey;
        }
    }

    /** Flushes every open appender, so that a failure of this chunk's rows surfaces with it. */
    void flush() throws SQLException {
        for (DuckDBAppender a : open.values()) {
            a.flush();
        }
    }

    /**
     * Closes every appender, then checks the transaction: DuckDB's Appender reports some failures (a duplicate key)
     * only by aborting it, after which a commit silently applies nothing.
     */
    void finish(PooledConnection c) throws SQLException {
        close();
        verifyTransaction(c);
    }

    /** Closes every appender; the first failure is thrown once all are closed. */
    void close() throws SQLException {
        SQLException failure = null;
        for (DuckDBAppender a : open.values()) {
            try {
                a.close();
            } catch (SQLException | RuntimeException e) {
                SQLException s = e instanceof SQLException q ? q : new SQLException(e.getMessage(), e);
                if (failure == null) {
                    failure = s;
                } else {
                    failure.addSuppressed(s);
                }
            }
        }
        open.clear();
        if (failure != null) {
            throw failure;
        }
    }

    private static void verifyTransaction(PooledConnection c) throws SQLException {
        try (Statement s = c.connection().createStatement()) {
            s.execute("SELECT 1");
        }
    }
}
