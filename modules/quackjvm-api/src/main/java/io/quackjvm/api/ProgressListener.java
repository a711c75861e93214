package io.quackjvm.api;

/**
 * Receives the progress of long operations on a collection: bulk loads (a {@link DuckDBBulkWriter}, a large
 * {@code addAll}), {@link DuckDBPersistence#optimize()} and {@link DuckDBPersistence#compact()}. Set it with
 * {@link DuckDBPersistence.Builder#progressListener(ProgressListener)}.
 *
 * <p>Called on the thread doing the work, after each chunk of rows (every {@code stagingChunkRows} objects of a
 * load, every table of a maintenance operation) and once more at the end with {@link Progress#finished()} set.
 * Keep it quick: the operation waits for it. An exception it throws is logged and otherwise ignored; it never
 * fails the operation.
 */
@FunctionalInterface
public interface ProgressListener {

    /** One step of an operation; {@code rowsDone} never decreases between two calls for one operation. */
    void onProgress(Progress progress);
}
