package io.quackjvm.api;

import io.quackjvm.api.internal.collection.BulkLoad;

/**
 * Loads many objects into a {@link DuckDBPersistence}'s collection in one transaction, without holding them all
 * in memory. Get one from {@link DuckDBPersistence#bulkWriter()} (or {@link DuckDBPersistence#bulkImporter()})
 * and use it with try-with-resources:
 * <pre>{@code
 * try (DuckDBBulkWriter<Car> writer = persistence.bulkWriter()) {
 *     writer.addAll(carsFromSomewhere);   // any Iterable: streamed, never collected
 *     writer.commit();
 * }
 * }</pre>
 *
 * <p><b>Streaming.</b> Objects are keyed into chunks of {@code stagingChunkRows} (default 131,072); each full chunk
 * goes through DuckDB's Appender into the object table and every index table, inside one DuckDB transaction that
 * DuckDB writes to its file (or spill directory) as it grows. A chunk is serialised on the calling thread while
 * the previous one is appended on a thread of the writer's own, so the Java heap holds two chunks at most. The
 * primary-key index of the uncommitted objects stays in DuckDB's memory until the commit (about 8 bytes per
 * integer key measured): see docs/writing.md for sizing {@code memoryLimit} for very large loads.
 *
 * <p><b>All or nothing.</b> The object table and every index table become visible together at {@link #commit()},
 * or not at all: {@link #close()} without a commit, any exception thrown inside a call (a serialisation error, a
 * duplicate key of a {@link DuckDBPersistence#bulkImporter() bulk importer}, an exception thrown by the
 * {@code Iterable} being read), or a process that dies half way leaves the collection exactly as it was. After a
 * failed call the writer refuses further use ({@link IllegalStateException}); open a new one. After
 * {@code commit()} the writer may go on: what is added next is a new transaction, committed by the next
 * {@code commit()}.
 *
 * <p><b>Keys.</b> A writer from {@link DuckDBPersistence#bulkWriter()} stores exactly what one {@code addAll} of
 * the whole load would: an object whose key is stored replaces the stored object unless the two are
 * {@code equals}, and when a key comes several times in the load, the last object wins. Finding stored keys costs
 * a lookup per chunk, skipped when no stored key is at or above the chunk's smallest key (an empty collection,
 * or keys that ascend chunk after chunk). A writer from {@link DuckDBPersistence#bulkImporter()} skips the lookup:
 * the caller promises every key is new (as with {@link DuckDBFlags#BULK_IMPORT}), and a key that is stored or
 * comes twice fails the whole load.
 *
 * <p><b>Concurrency.</b> Readers are never blocked and never see part of a load. The writer takes the
 * collection's write lock with its first chunk and holds it until {@code commit()} or {@code close()}: other
 * writers of the collection wait (with {@code serializeWrites(false)} they do not wait, and a write that touches
 * a key the load also writes makes one of the two fail with {@link WriteConflictException}). A writer belongs to
 * the thread that first uses it; that thread cannot write the collection by other means while the writer holds
 * uncommitted objects. On-heap CQEngine indexes added to the {@code IndexedCollection} are not told about the
 * load (DuckDB indexes are); add such indexes after loading.
 *
 * <p>Long loads report progress to {@link DuckDBPersistence.Builder#progressListener(ProgressListener)} and to the
 * log. Not thread-safe. Measured costs: docs/writing.md.
 *
 * @param <O> the type of the stored objects
 */
public final class DuckDBBulkWriter<O> implements AutoCloseable {

    private final BulkLoad<O, ?> load;

    DuckDBBulkWriter(BulkLoad<O, ?> load) {
        this.load = load;
    }

    /**
     * Adds one object to the load.
     *
     * @throws IllegalStateException when the writer was closed or failed earlier, or is used from another thread
     * @throws QuackException        when a chunk could not be written; the whole load is rolled back
     */
    public void add(O object) {
        load.add(object);
    }

    /**
     * Adds every object of {@code objects}, reading it once, in order. An exception thrown while iterating fails
     * and rolls back the whole load (what was committed earlier stays), and is rethrown.
     *
     * @throws IllegalStateException when the writer was closed or failed earlier, or is used from another thread
     * @throws QuackException        when a chunk could not be written; the whole load is rolled back
     */
    public void addAll(Iterable<? extends O> objects) {
        load.addAll(objects);
    }

    /**
     * Adds every object of the Parquet file, or of every {@code .parquet} file under the directory, that
     * {@code fileOrDir} names, as {@link ParquetExport#toParquet} wrote them (partitioned or not): a columnar
     * collection's objects are rebuilt from their typed columns, a blob collection's from the {@code _object} column
     * of an export made with {@code includeObjects(true)}. The objects join the writer's transaction like any other.
     *
     * @throws QuackException        before anything is stored, when the path does not exist or holds no Parquet
     *                               file, or a column the collection needs is missing or holds another type (naming
     *                               the column); when a row cannot be read, naming the file (the whole load is rolled
     *                               back)
     * @throws IllegalStateException when the writer was closed or failed earlier, or is used from another thread
     */
    public void addParquet(java.nio.file.Path fileOrDir) {
        java.util.Objects.requireNonNull(fileOrDir, "fileOrDir");
        load.addParquet(fileOrDir);
    }

    /**
     * Makes this a sliced, resumable load, for loads too large for one transaction: every {@code objects}
     * objects added are committed as one slice, and the number committed so far is recorded in the same
     * transaction. A crash loses at most the open slice. A sliced load that did not reach its final
     * {@link #commit()} is resumed by the next sliced writer of the collection: the objects the earlier run
     * committed are skipped, so a load restarted from the start of the same input, in the same order, goes on after
     * its last committed slice without storing anything twice ({@link #resumedAfter()} says how many were skipped).
     * The final {@code commit()} ends the load: the next sliced writer starts a new one. Each slice is atomic; the
     * load as a whole is not (readers see the slices committed so far). Call it before the first object is added.
     *
     * @return this writer
     * @throws IllegalArgumentException when {@code objects} is less than 1
     * @throws IllegalStateException    when objects were added already, or it was called before
     */
    public DuckDBBulkWriter<O> commitEvery(long objects) {
        load.commitEvery(objects);
        return this;
    }

    /**
     * How many objects the earlier run of a sliced load committed, which this writer skips: 0 for a new load or one
     * that is not sliced ({@link #commitEvery}).
     */
    public long resumedAfter() {
        return load.resumedAfter();
    }

    /**
     * Makes every object added since the last commit visible, with its index rows, in one DuckDB commit, and
     * releases the collection's write lock.
     *
     * @throws QuackException when the commit fails; nothing of the load is stored then
     */
    public void commit() {
        load.commit();
    }

    /** Discards every object added since the last commit and releases the write lock. Idempotent. */
    @Override
    public void close() {
        load.close();
    }
}
