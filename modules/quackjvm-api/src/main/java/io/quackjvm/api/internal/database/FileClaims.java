package io.quackjvm.api.internal.database;

import io.quackjvm.api.DatabaseLockedException;
import io.quackjvm.api.QuackException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The database files open in this JVM, by every identity of each ({@link DatabaseFiles#identities}): a file is
 * claimed before DuckDB opens it and released when its database is closed or dropped, so that one file is never
 * opened twice, under any name. Thread-safe.
 */
final class FileClaims {

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    private FileClaims() {
    }

    /**
     * DuckDB allows one open database object per file; a second one in the same JVM is refused by us. Keyed by
     * every identity of a file ({@link DatabaseFiles#identities}), each mapped to the file name its owner opened;
     * guarded by itself.
     */
    private static final Map<Object, Path> OPEN_FILES = new HashMap<>();

    /**
     * Claims every identity of {@code file} for the database about to open it.
     *
     * @throws DatabaseLockedException when one of them is already open in this JVM, under any name
     */
    static List<Object> reserve(Path file) {
        List<Object> ids = DatabaseFiles.identities(file);
        synchronized (OPEN_FILES) {
            for (Object id : ids) {
                Path holder = OPEN_FILES.get(id);
                if (holder != null) {
                    throw new DatabaseLockedException(file, "Cannot open database file " + file + ": it is already "
                            + "open in this JVM" + (holder.equals(file) ? "" : " as " + holder + " (the same file "
                            + "under another name: a hard link, a symbolic link or another spelling of its path)")
                            + " by another DuckDBPersistence or DuckDBDatabase, and opening one file twice would "
                            + "lose writes. Close that one first, or build every collection of the file from one "
                            + "DuckDBDatabase.", null);
                }
            }
            for (Object id : ids) {
                OPEN_FILES.put(id, file);
            }
        }
        return ids;
    }

    /** The identities the file gained by being created (its file key), claimed too; never throws for a name. */
    static List<Object> claimCreated(Path file, List<Object> claimed) {
        List<Object> more = new java.util.ArrayList<>();
        try {
            for (Object id : DatabaseFiles.identities(file)) {
                if (!claimed.contains(id)) {
                    more.add(id);
                }
            }
        } catch (QuackException e) {
            LOG.debug("Could not read the identity of {}: {}", file, e.getMessage());
        }
        synchronized (OPEN_FILES) {
            for (Object id : more) {
                OPEN_FILES.putIfAbsent(id, file);
            }
        }
        return more;
    }

    static void release(List<Object> ids) {
        synchronized (OPEN_FILES) {
            for (Object id : ids) {
                OPEN_FILES.remove(id);
            }
        }
    }
}
