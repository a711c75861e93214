package io.quackjvm.api.internal.collection;

import io.quackjvm.api.Operation;
import io.quackjvm.api.internal.database.Statements;

import io.quackjvm.api.internal.database.Writers;
import io.quackjvm.api.internal.query.SqlLiterals;

import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;

/**
 * How a batch of keys reaches SQL for one collection: an {@code IN} list of bound keys for a small batch (its
 * length rounded up to a power of two so that pooled connections cache few statement shapes), or the
 * connection's temporary staging table, filled by the Appender, for a large one; and the one statement that
 * reads the stored objects of a batch. Every key is bound in its stored form ({@link KeyType}). It reads and
 * stages only: it never deletes or writes objects or index rows, and runs on the connection it is handed.
 * Thread-safe.
 */
final class KeyBatches<O, A> {

    private final CollectionSchema<O, A> schema;
    private final int appenderThreshold;
    private final String stage;
    private final String stageName;

    KeyBatches(CollectionSchema<O, A> schema, int appenderThreshold) {
        this.schema = schema;
        this.appenderThreshold = appenderThreshold;
        this.stageName = "quackjvm_stage_" + schema.name;
        this.stage = CollectionSchema.quote(stageName);
    }

    /** Whether a batch of {@code n} keys is small: bound in an {@code IN} list rather than staged. */
    boolean small(int n) {
        return n <= appenderThreshold;
    }

    /** The quoted staging table, filled by {@link #stage}. */
    String stage() {
        return stage;
    }

    interface StoredObjectVisitor<A, O> {
        void visit(A key, O stored);
    }

    /**
     * Calls {@code visitor} for every stored object whose key is in {@code keys}, in one statement: an {@code IN}
     * list for a small batch, a join with the staged keys for a large one.
     */
    void forStoredObjects(PooledConnection c, Collection<A> keys, StoredObjectVisitor<A, O> visitor)
            throws SQLException {
        List<A> foundKeys = new ArrayList<>();
        List<O> foundObjects = new ArrayList<>();
        String key = CollectionSchema.KEY;
        if (small(keys.size())) {
            List<A> list = new ArrayList<>(keys);
            PreparedStatement ps = c.prepare("SELECT " + schema.columns.sql().lookupColumns() + ", " + key
                    + " FROM " + schema.table
                    + " WHERE " + key + " IN " + parameters(list.size()));
            try {
                bind(ps, list);
                try (ResultSet rs = ps.executeQuery()) {
                    readStored(rs, foundKeys, foundObjects);
                }
            } finally {
                c.recycle(ps);
            }
        } else {
            stage(c, keys);
            String sql = "SELECT " + schema.columns.qualifiedLookup("t") + ", t." + key + " FROM " + schema.table + " t JOIN "
                    + stage + " s ON t." + key + " = s." + key;
            try (Statement s = c.connection().createStatement(); ResultSet rs = s.executeQuery(sql)) {
                readStored(rs, foundKeys, foundObjects);
            }
        }
        visitAll(foundKeys, foundObjects, visitor);
    }

    /**
     * As {@link #forStoredObjects} for a small batch read once (the objects of a query's few matches), with the
     * keys written into the {@code IN} list as literals when each has one. DuckDB looks the keys up in the
     * primary key's ART either way, yet the literal list costs less than 256 bound slots (1.93 against 2.39 ms for
     * 202 keys of 1M, {@code benchmarks/results/archive/query-pushdown/and3-literals.md}). The statement is one-shot
     * ({@link SqlLiterals#MARK}); a key without an exact literal sends the batch through {@link #forStoredObjects}.
     */
    void forStoredObjectsOnce(PooledConnection c, Collection<A> keys, StoredObjectVisitor<A, O> visitor)
            throws SQLException {
        StringJoiner in = new StringJoiner(", ");
        for (A k : keys) {
            String literal = small(keys.size()) ? SqlLiterals.literal(schema.keyType.encode(k)) : null;
            if (literal == null) {
                forStoredObjects(c, keys, visitor);
                return;
            }
            in.add(literal);
        }
        String key = CollectionSchema.KEY;
        String sql = SqlLiterals.MARK + "SELECT " + schema.columns.sql().lookupColumns() + ", " + key
                + " FROM " + schema.table + " WHERE " + key + " IN (" + in + ")";
        List<A> foundKeys = new ArrayList<>();
        List<O> foundObjects = new ArrayList<>();
        PreparedStatement ps = c.prepare(sql);
        Statements db = schema.db.statements();
        try (Statements.Run run = db.start(ps, Operation.LOOKUP, schema.name, sql, db.timeoutOf(null), null);
             ResultSet rs = ps.executeQuery()) {
            readStored(rs, foundKeys, foundObjects);
            run.rows(foundKeys.size());
            run.succeeded();
        } finally {
            SqlLiterals.release(c, ps, sql);
        }
        visitAll(foundKeys, foundObjects, visitor);
    }

    private static <A, O> void visitAll(List<A> keys, List<O> objects, StoredObjectVisitor<A, O> visitor) {
        for (int i = 0; i < keys.size(); i++) {
            visitor.visit(keys.get(i), objects.get(i));
        }
    }

    /**
     * Reads rows of the layout's {@link io.quackjvm.api.spi.ObjectTable#lookupColumns} followed by the key, all of
     * them, before anything else runs.
     */
    private void readStored(ResultSet rs, List<A> keys, List<O> objects) throws SQLException {
        int keyColumn = schema.layout.lookupColumns().size();
        try (RowCursor rows = schema.db.reader(false).open(rs)) {
            while (rows.next()) {
                A key = schema.keyType.read(rows.row(), keyColumn);
                objects.add(schema.layout.readLookup(rows.row(), key));
                keys.add(key);
            }
        }
    }

    /**
     * {@code (?, ?, ...)} for {@code n} keys, rounded up to a power of two so that a pooled connection caches a
     * handful of statement shapes rather than one per batch size; {@link #bind} repeats the last key.
     */
    static String parameters(int n) {
        return "(" + String.join(", ", Collections.nCopies(slots(n), "?")) + ")";
    }

    private static int slots(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    /** Binds {@code keys} (encoded) to the slots of {@link #parameters}. */
    void bind(PreparedStatement ps, List<A> keys) throws SQLException {
        for (int i = 0, slots = slots(keys.size()); i < slots; i++) {
            schema.keyType.bind(ps, i + 1, keys.get(Math.min(i, keys.size() - 1)));
        }
    }

    /** Fills this connection's temporary staging table with {@code keys}. */
    void stage(PooledConnection c, Collection<A> keys) throws SQLException {
        Connection connection = c.connection();
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TEMP TABLE IF NOT EXISTS " + stage + " (" + CollectionSchema.KEY + " "
                    + schema.keyType.sqlType + ")");
            s.execute("DELETE FROM " + stage);
        }
        try (DuckDBAppender appender = connection.unwrap(DuckDBConnection.class)
                .createAppender("temp", DuckDBConnection.DEFAULT_SCHEMA, stageName)) {
            Writers.AppenderRow row = new Writers.AppenderRow(appender);
            for (A key : keys) {
                appender.beginRow();
                schema.keyType.write(row, key);
                appender.endRow();
            }
        }
    }
}
