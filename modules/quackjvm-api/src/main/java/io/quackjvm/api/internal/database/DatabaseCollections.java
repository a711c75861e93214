package io.quackjvm.api.internal.database;

import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.spi.PooledConnection;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * What one database knows of its collections: the table behind each persistence (so that a query naming another
 * collection finds its table without the engine knowing the persistence's class), and whether the metadata tables
 * that record the collections exist yet. An in-memory database creates those tables lazily, with the rows of the
 * collections created before them. Thread-safe.
 */
public final class DatabaseCollections {

    /** Weakly held: a persistence the application dropped leaves. Guarded by {@code this}. */
    private final Map<Object, CollectionTable<?, ?>> byPersistence = new WeakHashMap<>();
    /** Guarded by {@code this}. */
    private final List<String> pendingMetadata = new ArrayList<>();
    /** The metadata tables' statements, given with the first pending row. Guarded by {@code this}. */
    private List<String> pendingDdl = List.of();
    private final boolean readOnly;
    private volatile boolean metadataReady;

    DatabaseCollections(boolean readOnly) {
        this.readOnly = readOnly;
    }

    /** Records that {@code persistence} stores its objects in {@code table} of this database. */
    public synchronized void register(Object persistence, CollectionTable<?, ?> table) {
        byPersistence.put(persistence, table);
    }

    /** The table of a persistence {@link #register registered} here, or {@code null}. */
    public synchronized CollectionTable<?, ?> tableOf(Object persistence) {
        return persistence == null ? null : byPersistence.get(persistence);
    }

    /** Whether the metadata tables are known to be there, in their current shape. */
    public boolean metadataReady() {
        return metadataReady;
    }

    /** Records that the metadata tables were created or checked. */
    public void metadataReady(boolean ready) {
        metadataReady = ready;
    }

    /**
     * {@code true} for the first collection created in an in-memory database whose metadata tables do not exist
     * yet, which then records its metadata row with {@link #metadataPending}. Collections of one database are
     * created one at a time (the database façade builds them under its lock).
     */
    public synchronized boolean firstCollection() {
        return !metadataReady && pendingMetadata.isEmpty() && !readOnly;
    }

    /**
     * The metadata row of a collection created before the metadata tables, written by {@link #ensureMetadata}
     * together with the tables ({@code ddl}).
     */
    public synchronized void metadataPending(List<String> ddl, String insert) {
        pendingDdl = List.copyOf(ddl);
        pendingMetadata.add(insert);
    }

    /**
     * Creates the metadata tables on {@code c} now if collections are waiting for them, so that the database's
     * catalog describes every collection (for a copy of it); does nothing otherwise.
     */
    public synchronized void ensurePendingMetadata(PooledConnection c) throws SQLException {
        if (!pendingMetadata.isEmpty()) {
            ensureMetadata(c, pendingDdl);
        }
    }

    /**
     * Creates the metadata tables ({@code ddl}) with the rows of the collections created before them, in one
     * transaction on {@code c}; does nothing once done.
     */
    public synchronized void ensureMetadata(PooledConnection c, List<String> ddl) throws SQLException {
        if (metadataReady) {
            return;
        }
        StringBuilder sql = new StringBuilder("BEGIN TRANSACTION; ");
        for (String s : ddl) {
            sql.append(s).append("; ");
        }
        for (String s : pendingMetadata) {
            sql.append(s).append("; ");
        }
        sql.append("COMMIT");
        try (Statement s = c.connection().createStatement()) {
            s.execute(sql.toString());
        }
        pendingMetadata.clear();
        metadataReady = true;
    }
}
