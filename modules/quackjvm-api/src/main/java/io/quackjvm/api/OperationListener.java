package io.quackjvm.api;

/**
 * Hears what a database does, for metrics: each statement or write as it ends, each wait for a collection's write
 * lock, each write conflict. Added with {@link DuckDBDatabase#addListener} or {@link DuckDBPersistence#addListener}.
 *
 * <p>The methods run on the thread that did the work, after it: they must be quick, must not block, and must not
 * use the database. An exception a listener throws is logged and does not reach the caller.
 */
public interface OperationListener {

    /**
     * A statement or a write ended.
     *
     * @param collection the collection's name ({@link DuckDBDatabase#nameOf}), or {@code null} for a statement of
     *                   {@link DuckDBDatabase#query} or one that spans collections (a join)
     * @param operation  what it served
     * @param nanos      how long it took, from the start of its statement to its end (for a streamed retrieval, until
     *                   its first rows were ready; the time the caller spends between rows is not counted)
     * @param rows       rows it returned or wrote, or -1 when not known (a streamed retrieval)
     * @param failed     whether it ended with an exception (a timeout and a cancellation included)
     */
    void operationEnded(String collection, Operation operation, long nanos, long rows, boolean failed);

    /** A writer waited {@code nanos} for the write lock of {@code collection}; not called when it did not wait. */
    default void writeLockWaited(String collection, long nanos) {
    }

    /** A write to {@code collection} lost a race with another and failed with {@link WriteConflictException}. */
    default void writeConflicted(String collection) {
    }
}
