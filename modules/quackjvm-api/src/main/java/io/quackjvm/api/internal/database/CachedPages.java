package io.quackjvm.api.internal.database;

import io.quackjvm.api.spi.PooledConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.sql.Statement;

/** The buffer pool's cached pages of one file database, which maintenance gives back. Thread-safe. */
public final class CachedPages {

    private static final Logger LOG = LoggerFactory.getLogger(CachedPages.class);

    private final Database db;

    CachedPages(Database db) {
        this.db = db;
    }

    /**
     * Gives back the buffer pool's cached pages of a file database: DuckDB evicts unpinned blocks when its
     * {@code memory_limit} is lowered, so the limit is lowered to {@link #RELEASE_FLOOR} for a moment and put back.
     * Those pages are re-read from the file when needed. After a 1M-object load and {@code optimize()} with
     * {@code memoryLimit("256MB")} this took the process from 200 MB to 114 MB resident
     * (benchmarks/results/archive/memory-phases/). In-memory databases keep their blocks (evicting them would spill). A statement
     * of another thread that needs more than the floor during that moment may fail with DuckDB's out-of-memory
     * error, so it runs only where the caller asked for maintenance ({@code optimize()}, {@code compact()}).
     */
    public synchronized void release() {
        if (db.isInMemory() || db.isClosed()) {
            return;
        }
        if (db.resources().count() > 0) {
            // A result still streaming or a write still open could need more than the floor for its next
            // chunk and fail with an out-of-memory error; the pages stay cached until the next maintenance.
            LOG.debug("Not releasing cached pages of {}: {} result(s) or write(s) open", db.describe(), db.resources().count());
            return;
        }
        try (PooledConnection c = db.borrow(); Statement s = c.connection().createStatement()) {
            if (memoryLimit.change(s, RELEASE_FLOOR)) {
                memoryLimit.restore(s);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug("Releasing cached pages of {} failed: {}", db.describe(), e.getMessage());
        }
    }

    /** Lowered by {@link #release()} for a moment, then put back to the limit the database was opened with. */
    private final HeldSetting memoryLimit = new HeldSetting("memory_limit");

    /** The memory limit {@link #release()} lowers to for a moment. */
    static final String RELEASE_FLOOR = "16MB";
}
