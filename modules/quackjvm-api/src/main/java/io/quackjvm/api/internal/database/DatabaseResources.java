package io.quackjvm.api.internal.database;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.ConnectionPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * What one open database holds that must be released: the connections, the DuckDB instance (its root
 * connection; the instance ends with its last connection) or the shared engine's catalog, the results and
 * transactions still open, the spill directory, the claim on the file and what the open created. It is the
 * {@code Database}'s cleaner's action for a database dropped without {@link #close()}, so it must not refer to the
 * {@link Database}, nor to anything that does (the pool is created by a provider given the root connection
 * only; what {@link OpenResources} holds refers to connections, never to the database). Thread-safe: teardown
 * runs once, under {@link #closing}.
 */
final class DatabaseResources implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    final Path file;
    final boolean readOnly;
    final OpenResources open;
    final Path spillDirectory;
    final List<Path> created;
    /** The identities of the file this database owns in {@link FileClaims}; empty in memory. */
    final List<Object> owned = new java.util.ArrayList<>();
    Connection root;
    /** The catalog of the collections' tables: {@link Database#CATALOG}, the shared engine's, or {@code memory}. */
    String catalog;
    /** The engine whose catalog this database is, or {@code null} for an instance of its own. */
    SharedEngine engine;
    ConnectionPool pool;
    volatile Path temporaryFile;
    /** Held by the one teardown, so that a close() on another thread waits until it is done. */
    final Object closing = new Object();
    /** Guarded by {@link #closing}. */
    boolean tornDown;

    DatabaseResources(Path file, boolean readOnly, OpenResources open, Path spillDirectory, List<Path> created,
              List<Object> owned) {
        this.file = file;
        this.readOnly = readOnly;
        this.open = open;
        this.spillDirectory = spillDirectory;
        this.created = created;
        this.owned.addAll(owned);
    }

    void root(Connection root, String catalog) {
        this.root = root;
        this.catalog = catalog;
    }

    void shared(SharedEngine engine, String catalog, Connection root) {
        this.engine = engine;
        this.catalog = catalog;
        this.root = root;
    }

    void claimed(List<Object> more) {
        synchronized (closing) {
            owned.addAll(more);
        }
    }

    String describe() {
        return file == null ? "in-memory DuckDB database" : "DuckDB database " + file;
    }

    /** The cleaner's entry point: the database became unreachable without being closed. */
    @Override
    public void run() {
        synchronized (closing) {
            if (tornDown) {
                return;
            }
            tornDown = true;
            try {
                LOG.debug("The {} was dropped without close(); releasing it", describe());
                tearDown(false, false);
            } catch (RuntimeException | Error e) {
                LOG.warn("Releasing the {}, dropped without close(), failed: {}", describe(), e.toString());
            }
        }
    }

    /** Closes everything once; the claim on the file is given up last. */
    void tearDown(boolean deleteCreated, boolean warnOpen) {
        List<Throwable> left = open.releaseAll();
        if (!left.isEmpty() && warnOpen) {
            QuackException where = null;
            if (left.get(0) != null) {
                where = new QuackException(left.size() + " unclosed result(s) of the " + describe());
                for (Throwable origin : left) {
                    where.addSuppressed(origin);
                }
            }
            LOG.warn("Closed the {} with {} result(s) or iterator(s) still open; they were released and now fail "
                    + "if used. Close every ResultSet and iterator you open (try-with-resources){}", describe(),
                    left.size(), where == null ? "; build with trackUnclosedResults(true) to log where each was "
                            + "opened" : "", where);
        }
        if (file != null && !readOnly && !deleteCreated) {
            // Fold the log into the file: a file closed cleanly has no log, so any process can open it
            // read-only (DuckDB cannot replay some logs read-only, one that creates an index for one).
            try (Statement s = root.createStatement()) {
                s.execute("CHECKPOINT " + Database.CATALOG);
            } catch (SQLException e) {
                LOG.warn("Closing the {}: the last checkpoint failed, so its log stays next to the file and is "
                        + "replayed when the file is next opened read-write: {}", describe(), e.getMessage());
            }
        }
        RuntimeException poolFailure = closeConnections();
        if (deleteCreated) {
            DatabaseFiles.deleteCreated(created);
        }
        deleteTemporaryFile();
        FileClaims.release(owned);
        LOG.debug("Closed {}", describe());
        if (poolFailure != null) {
            throw new QuackException("Closing the " + describe() + ": its connection pool failed to close ("
                    + poolFailure + "); the database was closed and its file released all the same", poolFailure);
        }
    }

    /** Undoes a failed {@link Database#open}: closes what it opened, deletes what it created, then gives up the file. */
    void undoOpen(Throwable failure) {
        synchronized (closing) {
            tornDown = true;
            RuntimeException poolFailure = closeConnections();
            if (poolFailure != null) {
                failure.addSuppressed(poolFailure);
            }
            DatabaseFiles.deleteCreated(created);
            FileClaims.release(owned);
        }
    }

    /**
     * Closes the pool and the root connection (an instance of its own ends with its last connection), detaches
     * the shared engine's catalog, and deletes the spill directory; returns the pool's failure, if any.
     */
    private RuntimeException closeConnections() {
        RuntimeException poolFailure = null;
        try {
            if (pool != null) {
                pool.close();
            }
        } catch (RuntimeException e) {
            poolFailure = e;
        }
        try {
            if (root != null) {
                root.close();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Closing {} failed: {}", describe(), e.getMessage());
        }
        if (engine != null) {
            engine.detach(catalog);
        }
        SpillDirectory.delete(spillDirectory);
        return poolFailure;
    }

    /** Deletes a temporary database ({@code onPrimaryKeyInTempFile}); a failure is logged, not thrown. */
    private void deleteTemporaryFile() {
        Path temp = temporaryFile;
        if (temp == null) {
            return;
        }
        try {
            Files.deleteIfExists(Path.of(temp + ".wal"));
            Files.deleteIfExists(temp);
            Files.deleteIfExists(temp.getParent());
        } catch (IOException e) {
            LOG.debug("Could not delete the temporary database {}: {}", temp, e.getMessage());
        }
    }
}
