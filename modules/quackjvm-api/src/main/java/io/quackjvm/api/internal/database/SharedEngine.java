package io.quackjvm.api.internal.database;

import org.duckdb.DuckDBConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one DuckDB instance that the in-memory databases of this process share when they ask for nothing of their
 * own (no memory limit, no DuckDB property). Starting a DuckDB instance costs milliseconds and, with DuckDB's
 * default {@code threads}, a worker thread per core beyond the first, for as long as it is open; an empty in-memory
 * catalog {@code ATTACH}ed to a running instance costs a fraction of that and no thread
 * (benchmarks/results/archive/many-collections/). So each such database is a catalog of its
 * own ({@code quackjvm_mem_<n>}): its tables, metadata and SQL views live there, every connection of it is switched
 * to it with {@code USE}, and closing it {@code DETACH}es it, which frees its memory. Catalogs keep their
 * collections apart by name; DuckDB keeps one transaction manager per attached database, so a write, a checkpoint
 * or a conflict in one never involves another.
 *
 * <p>Started on first use with the library's settings ({@link Database#open}) and kept for the life of the process
 * (its worker threads too); it spills under {@link SpillDirectory#ofProcess()}. Thread-safe.
 */
final class SharedEngine {

    private static final Logger LOG = LoggerFactory.getLogger(SharedEngine.class);
    /** Guarded by the class. */
    private static SharedEngine instance;

    /** The engine's own connection; catalogs are attached and detached through it, under its lock. */
    private final DuckDBConnection root;
    private final AtomicLong next = new AtomicLong();
    /** Catalogs attached and not yet detached; guarded by {@code this}. */
    private int attached;

    private SharedEngine(DuckDBConnection root) {
        this.root = root;
    }

    /** The engine, started with {@code settings} the first time. */
    static synchronized SharedEngine get(Properties settings) throws SQLException {
        if (instance == null) {
            Properties own = new Properties();
            own.putAll(settings);
            own.setProperty("temp_directory", SpillDirectory.ofProcess().resolve("shared").toString());
            DuckDBConnection root = DriverManager.getConnection("jdbc:duckdb:", own).unwrap(DuckDBConnection.class);
            try (Statement s = root.createStatement()) {
                // the library's default; a database asking for another gets an instance of its own
                s.execute("SET " + Database.STREAMING_BUFFER + " = '" + Database.DEFAULT_STREAMING_BUFFER + "'");
            } catch (SQLException | RuntimeException e) {
                root.close();
                throw e;
            }
            instance = new SharedEngine(root);
            LOG.debug("Started the DuckDB instance shared by in-memory databases");
        }
        return instance;
    }

    /** The engine if it was started, else {@code null}; for tests. */
    static synchronized SharedEngine started() {
        return instance;
    }

    /**
     * A new, empty in-memory catalog's name, and a connection of its own to the engine for the database to
     * duplicate its connections from (a duplicate starts in the engine's {@code memory} catalog: the database
     * switches each to its catalog with {@code USE}).
     */
    record Catalog(String name, Connection connection) {
    }

    /** Attaches a new, empty in-memory catalog and returns it with a connection of its own. */
    Catalog attach() throws SQLException {
        String name = "quackjvm_mem_" + next.incrementAndGet();
        synchronized (this) {
            try (Statement s = root.createStatement()) {
                s.execute("ATTACH ':memory:' AS " + name);
            }
            attached++;
            try {
                return new Catalog(name, root.duplicate());
            } catch (SQLException | RuntimeException e) {
                detach(name);
                throw e;
            }
        }
    }

    /**
     * Detaches a catalog, freeing what it holds; its connections must be closed first. A failure is logged, not
     * thrown (the catalog then stays attached, holding its memory, until the process ends).
     */
    void detach(String name) {
        synchronized (this) {
            try (Statement s = root.createStatement()) {
                s.execute("DETACH DATABASE IF EXISTS " + name);
                attached--;
            } catch (SQLException e) {
                LOG.warn("Could not detach the in-memory catalog {} of a closed database; it keeps its memory until "
                        + "the process ends: {}", name, e.getMessage());
            }
        }
    }

    /** How many catalogs are attached now. */
    synchronized int attachedCount() {
        return attached;
    }
}
