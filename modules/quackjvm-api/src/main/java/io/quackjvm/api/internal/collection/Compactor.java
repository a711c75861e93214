package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.index.IndexTable;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.PooledConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * Reclaims the space of deleted rows by rewriting a collection's tables, then checkpoints.
 *
 * <p>Why a rewrite: DuckDB 1.5.5 drops deleted rows at a checkpoint only from tables without an index. The object
 * table has one (its {@code PRIMARY KEY}), so its deleted rows stayed in the file for good: a raw-SQL probe that
 * deleted and re-inserted 200k rows ten times kept every old row group (row count in {@code pragma_storage_info}
 * 200k, 400k, ... 2.2M) and the file grew by one copy per round, with or without {@code FORCE CHECKPOINT} or
 * {@code VACUUM}. A table created anew holds only the live rows; when the transaction that swapped it in commits,
 * the checkpoint frees the old table's blocks and DuckDB reuses them for later writes (and truncates free blocks
 * at the end of the file).
 *
 * <p>All of it is one transaction under the collection's write lock: a crash before the commit leaves the old
 * tables as they were, after it the new ones; nothing acknowledged is lost either way. Pooled connections keep
 * their prepared statements: DuckDB re-binds a prepared statement whose table was replaced.
 */
public final class Compactor {

    private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

    /** How long compact() waits for another writer of the collection before it fails. */
    static final long LOCK_WAIT_MS = 2_000;

    private Compactor() {
    }

    /**
     * Rewrites the object table (same columns, primary key and column compression) and every attached index table
     * (through its strategy's {@code optimize} statements, which rewrite it sorted by value and re-create whatever
     * the strategy attached), in one transaction; then checkpoints. A checkpoint DuckDB refuses (older transactions
     * still open) is logged, not thrown: the rewrite is committed and the next checkpoint frees the space.
     */
    public static void compact(CollectionTable<?, ?> table) {
        long start = System.nanoTime();
        awaitNoOtherWriter(table);
        // The first rewrite lands after the blocks in use, so the file only stops growing: measured with 200k rows
        // replaced between compactions, one pass left the file at 2.5x a fresh one's size. The second rewrite lands
        // in the blocks the first one freed, at the front, and its checkpoint truncates the free blocks at the
        // end: 1.0-1.3x (raw-SQL probe; benchmarks/results/archive/compact/). It is skipped when the first checkpoint is
        // refused, since the blocks it would move into are not free yet.
        ProgressReporter.Tracker tracker = null;
        try {
            for (int pass = 1; pass <= 2; pass++) {
                tracker = rewrite(table, tracker);
                if (!checkpoint(table)) {
                    break;
                }
            }
        } finally {
            if (tracker != null) {
                tracker.finish();
            }
        }
        LOG.debug("Compacted collection '{}' in {} ms", table.name(), (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * One rewrite pass. Progress counts the rows of every table rewritten; the first pass starts the tracker,
     * expecting two passes' worth.
     */
    private static ProgressReporter.Tracker rewrite(CollectionTable<?, ?> table, ProgressReporter.Tracker started) {
        return table.statements().write(null, "Compacting", c -> {
            List<IndexTable<?, ?>> indexes = new ArrayList<>(table.indexes().all());
            long objects = CollectionIndexes.rowCount(c, table.schema().sqlName());
            List<Long> rows = new ArrayList<>();
            long total = objects;
            for (IndexTable<?, ?> index : indexes) {
                rows.add(CollectionIndexes.rowCount(c, index.sqlName()));
                total += rows.get(rows.size() - 1);
            }
            ProgressReporter.Tracker tracker = started != null ? started : table.progress().start("compact", 2 * total);
            rewriteObjectTable(c, table);
            tracker.advance(objects);
            try (Statement s = c.connection().createStatement()) {
                for (int i = 0; i < indexes.size(); i++) {
                    for (String sql : indexes.get(i).strategy().optimize(indexes.get(i).definition())) {
                        s.execute(sql);
                    }
                    tracker.advance(rows.get(i));
                }
            }
            return tracker;
        });
    }

    /** Checkpoints; {@code false} when DuckDB refused because older transactions are open (logged, not thrown). */
    private static boolean checkpoint(CollectionTable<?, ?> table) {
        try {
            table.database().checkpoint(true);
            return true;
        } catch (QuackException e) {
            // DuckDB 1.5.5 refuses a checkpoint while a transaction that began before the swap is still open (a
            // result set still being read keeps the old table alive for it). The rewrite is committed; the old
            // table's blocks are freed by the next checkpoint that runs (the next compact(), an automatic one,
            // close()).
            LOG.info("compact() of collection '{}' rewrote its tables, but the checkpoint that frees the old ones' "
                    + "space was refused while older transactions are open (unclosed result sets); the next "
                    + "checkpoint frees it. DuckDB said: {}", table.name(), e.getCause() == null ? e.getMessage()
                    : e.getCause().getMessage());
            return false;
        }
    }

    /**
     * Fails, naming the cause, when another request keeps the collection's write lock for longer than
     * {@link #LOCK_WAIT_MS}: a compaction must not queue behind a write that may never end (an unclosed result of a
     * request that wrote). The lock is only probed, not kept, so a policy's lock need not be reentrant; a writer
     * that takes it in between is simply waited for, like any writer.
     */
    private static void awaitNoOtherWriter(CollectionTable<?, ?> table) {
        Lock lock = table.database().writePolicy().lockFor(table.name());
        boolean free;
        try {
            free = lock.tryLock(LOCK_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuackException("compact() of collection '" + table.name() + "' was interrupted while waiting "
                    + "for another write to end", e);
        }
        if (!free) {
            throw new QuackException("compact() could not start on collection '" + table.name() + "' in the "
                    + table.database().describe() + ": another write transaction is open after " + LOCK_WAIT_MS
                    + " ms (a write request still running on another thread, or an unclosed CQEngine ResultSet or "
                    + "iterator of a request that has written). Close them and call compact() again.");
        }
        lock.unlock();
    }

    private static void rewriteObjectTable(PooledConnection c, CollectionTable<?, ?> table) throws SQLException {
        String name = table.name();
        String copy = CollectionSchema.quote("quackjvm_compact_" + name);
        Map<String, Column> declared = new HashMap<>();
        for (Column col : table.columns().all()) {
            declared.put(col.name(), col);
        }
        // The table's own columns, in its order: a table found in a file may order them differently from the
        // layout, and may keep columns the layout no longer has.
        StringJoiner ddl = new StringJoiner(", ", "CREATE TABLE " + copy + " (", ")");
        ddl.add(CollectionSchema.KEY + " " + table.schema().keyType().sqlType + " PRIMARY KEY");
        List<String> columns = new ArrayList<>();
        try (PreparedStatement p = c.connection().prepareStatement("SELECT column_name, data_type FROM duckdb_columns() "
                + "WHERE database_name = current_database() AND schema_name = current_schema() AND table_name = ? "
                + "ORDER BY column_index")) {
            p.setString(1, name);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    String column = rs.getString(1);
                    if (column.equals(CollectionSchema.KEY)) {
                        continue;
                    }
                    Column col = declared.get(column);
                    String type = col != null ? col.sqlType() : rs.getString(2);
                    String compression = col != null && col.compression() != null
                            ? " USING COMPRESSION " + col.compression() : "";
                    ddl.add(CollectionSchema.quote(column) + " " + type + compression);
                    columns.add(CollectionSchema.quote(column));
                }
            }
        }
        String list = columns.isEmpty() ? CollectionSchema.KEY : CollectionSchema.KEY + ", " + String.join(", ", columns);
        try (Statement s = c.connection().createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + copy);
            s.execute(ddl.toString());
            s.execute("INSERT INTO " + copy + " (" + list + ") SELECT " + list + " FROM " + table.schema().sqlName());
            s.execute("DROP TABLE " + table.schema().sqlName());
            s.execute("ALTER TABLE " + copy + " RENAME TO " + table.schema().sqlName());
        }
    }
}
