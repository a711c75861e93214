package io.quackjvm.api;

import java.time.Duration;
import java.util.Objects;

/**
 * A snapshot of a long operation's progress, handed to a {@link ProgressListener}.
 *
 * @param operation     what runs: {@code "bulk load"}, {@code "addAll"}, {@code "optimize"}, {@code "compact"} or
 *                      {@code "migration"} ({@link DiskPersistenceMigration})
 * @param collection    the collection's table name
 * @param rowsDone      rows handled so far (objects for a load; object and index rows for maintenance)
 * @param rowsExpected  rows the operation will handle in all, or {@code -1} when that is not known in advance
 *                      (a bulk writer fed from an {@code Iterable})
 * @param elapsed       time since the operation started
 * @param finished      {@code true} on the last call for the operation, whether it succeeded or failed
 */
public record Progress(String operation, String collection, long rowsDone, long rowsExpected, Duration elapsed,
                       boolean finished) {

    public Progress {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(collection, "collection");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    @Override
    public String toString() {
        return operation + " of collection '" + collection + "': " + rowsDone
                + (rowsExpected >= 0 ? " of " + rowsExpected : "") + " rows in " + elapsed.toMillis() + " ms"
                + (finished ? " (finished)" : "");
    }
}
