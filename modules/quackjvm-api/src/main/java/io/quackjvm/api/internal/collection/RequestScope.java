package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.database.OpenResources;

import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.spi.PooledConnection;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * One CQEngine request of one thread against one collection.
 *
 * <p>Reads need no scope: each borrows its own pooled connection, so readers never wait for writers. The first
 * write of a request takes the collection's write lock, borrows a connection and opens a DuckDB transaction
 * that every later write (and read) of the request shares; when the outermost request ends the transaction
 * commits, or rolls back if any write failed. Not thread-safe: a scope belongs to its thread.
 */
public final class RequestScope {

    /** Cursors to close at the end, made on the first one (most requests read by key and register none). */
    private List<AutoCloseable> cursors;
    private final CollectionTable<?, ?> table;
    private PooledConnection write;
    private OpenResources.Held writeHeld;
    private Lock lock;
    private boolean failed;
    private ObjectCache.Write<?> cacheWrite;
    /** What the request's writes are, for the reports; {@code null} for a write that is not reported (DDL). */
    private io.quackjvm.api.Operation operation;
    /** When the request asked for its write lock. */
    private long writeStart;

    public RequestScope(CollectionTable<?, ?> table) {
        this.table = table;
    }

    /** The connection of this request's transaction, started on first use. */
    PooledConnection writeConnection() {
        return writeConnection(null);
    }

    /** As {@link #writeConnection()}, for a write that is {@code op} (or {@code null}: not reported). */
    PooledConnection writeConnection(io.quackjvm.api.Operation op) {
        if (operation == null) {
            operation = op;
        }
        if (write == null) {
            Lock l = table.database().writePolicy().lockFor(table.name());
            writeStart = System.nanoTime();
            if (!l.tryLock()) {
                l.lock();
                table.database().statements().reportLockWait(table.name(), System.nanoTime() - writeStart);
            }
            PooledConnection c = null;
            try {
                c = table.database().borrow();
                // An explicit BEGIN on a connection left in auto-commit mode: DuckDB's Appender joins it, and it
                // costs one statement where JDBC's setAutoCommit(false) / commit() / setAutoCommit(true) cost
                // three round trips (measured for a one-row insert in a file: 0.59 ms against 0.90-1.06 ms).
                c.begin();
            } catch (SQLException | RuntimeException e) {
                if (c != null) {
                    resetAndRelease(c);
                }
                l.unlock();
                throw e instanceof SQLException ? Failures.wrap("Starting a write transaction", null, (SQLException) e)
                        : (RuntimeException) e;
            }
            lock = l;
            write = c;
            writeHeld = new Transaction(table.database().resources(), Database.lent(c));
            table.database().resources().register(writeHeld, null);
        }
        return write;
    }

    /**
     * A write transaction left open when the database closes: closing its connection rolls it back (the request
     * never ended, so nothing of it was acknowledged).
     */
    static final class Transaction extends OpenResources.Held {
        private final PooledConnection connection;

        Transaction(OpenResources registry, PooledConnection connection) {
            super(registry, "A write transaction");
            this.connection = connection;
        }

        @Override
        protected void free() {
            try {
                connection.connection().close();
            } catch (SQLException ignored) {
                // closing
            }
        }
    }

    /**
     * A cursor of the object store's own iterator (the one CQEngine's collection iterator reads), which knows the
     * object it returned last.
     */
    public interface StoreCursor {
        /** Whether this cursor is still open and {@code o} is (the very instance) it returned last. */
        boolean returnedLast(Object o);
    }

    /**
     * {@code true} when removing {@code objects} is an {@code Iterator.remove()} of a store iterator this request
     * opened: {@code objects} is the one object that iterator, still open, returned last, and the request has not
     * written. (CQEngine's collection iterator removes exactly that object, through the store's {@code removeAll},
     * inside the iterator's own request, which may never end: the application may abandon the iterator.) On the
     * heap that removal takes effect at once, so it must not wait for the request's end: it runs, and commits, as a
     * request of its own. A direct call ({@code remove(o)}, {@code update(...)}) opens a request of its own, which
     * commits when the call returns.
     */
    boolean removesCurrentObject(java.util.Collection<?> objects) {
        if (write != null || cursors == null || objects.size() != 1) {
            return false;
        }
        Object o = objects.iterator().next();
        for (AutoCloseable cursor : cursors) {
            if (cursor instanceof StoreCursor store && store.returnedLast(o)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rolls back this request's transaction, which has seen only a statement DuckDB refused, and begins a new one
     * on the same connection, keeping the write lock.
     */
    void restartTransaction() throws SQLException {
        try {
            write.rollback();
            write.begin();
        } catch (SQLException e) {
            failed = true;
            throw e;
        }
    }

    /** The write connection if this request has started writing, else {@code null}. */
    PooledConnection activeWrite() {
        return write;
    }

    /**
     * The object cache's marks of this request's transaction: its writes mark the keys they change before the
     * commit, and {@link #finish()} ends the marks after COMMIT or ROLLBACK.
     */
    ObjectCache.Write<?> cacheWrite() {
        if (cacheWrite == null) {
            cacheWrite = table.cache().beginWrite();
        }
        return cacheWrite;
    }

    /** Marks the request as failed: its transaction will roll back whole. */
    void fail() {
        failed = true;
    }

    /** Closes {@code cursor} when the request ends, if its reader has not closed it by then. */
    void register(AutoCloseable cursor) {
        if (cursors == null) {
            cursors = new ArrayList<>();
        }
        cursors.add(cursor);
    }

    /**
     * Ends the request: closes the cursors it opened (CQEngine does not close every result set it opens
     * internally), then commits, or rolls back after a failure.
     */
    void finish() {
        ObjectCache.Write<?> marks = cacheWrite;
        cacheWrite = null;
        try {
            finishTransaction();
        } finally {
            if (marks != null) {
                marks.end(); // after COMMIT or ROLLBACK, whatever happened
            }
        }
    }

    private void finishTransaction() {
        if (cursors != null) {
            for (AutoCloseable cursor : cursors) {
                try {
                    cursor.close();
                } catch (Exception ignored) {
                    // a cursor that fails to close has released what it could
                }
            }
            cursors.clear();
        }
        if (write == null) {
            return;
        }
        PooledConnection c = write;
        Lock l = lock;
        OpenResources.Held held = writeHeld;
        write = null;
        lock = null;
        writeHeld = null;
        boolean rollback = failed;
        failed = false;
        io.quackjvm.api.Operation op = operation;
        operation = null;
        boolean ended = false;
        try {
            endTransaction(c, l, held, rollback);
            ended = true;
        } finally {
            if (op != null) {
                table.database().statements().reportWrite(table.name(), op, System.nanoTime() - writeStart, -1,
                        rollback || !ended);
            }
        }
    }

    private void endTransaction(PooledConnection c, Lock l, OpenResources.Held held, boolean rollback) {
        if (!held.detach()) {
            // Database.close() ended the transaction (closing its connection rolls it back).
            c.close();
            l.unlock();
            throw new PersistenceClosedException("The " + table.database().describe() + " was closed while a write "
                    + "to collection '" + table.name() + "' was still open; nothing of that write was stored");
        }
        try {
            if (rollback) {
                c.rollback();
            } else {
                try {
                    // A transaction DuckDB aborted (an Appender that hit a duplicate key, a conflict) makes COMMIT
                    // fail here instead of silently applying nothing.
                    c.commit();
                } catch (SQLException e) {
                    rollbackQuietly(c);
                    throw conflictReported(Failures.wrap("Committing a write to collection '" + table.name() + "'",
                            null, e));
                }
            }
        } catch (SQLException e) {
            // The transaction may still be open: the pool must never lend the connection again.
            discard(c);
            throw Failures.wrap("Rolling back a failed write to collection '" + table.name() + "'", null, e);
        } finally {
            c.close();
            l.unlock();
        }
    }

    /** {@code e}, reported to the listeners first when it is a write conflict. */
    io.quackjvm.api.QuackException conflictReported(io.quackjvm.api.QuackException e) {
        if (e instanceof io.quackjvm.api.WriteConflictException) {
            table.database().statements().reportConflict(table.name());
        }
        return e;
    }

    /** Rolls back; a connection that cannot even do that is closed, so the pool never lends it again. */
    static void rollbackQuietly(PooledConnection c) {
        try {
            c.rollback();
        } catch (SQLException e) {
            if (!Failures.isNoTransaction(e)) {
                discard(c);
            }
        }
    }

    /** Closes the connection itself, so that its pool drops it instead of lending it again. */
    static void discard(PooledConnection c) {
        try {
            c.connection().close();
        } catch (SQLException ignored) {
            // already unusable
        }
    }

    private static void resetAndRelease(PooledConnection c) {
        rollbackQuietly(c);
        c.close();
    }
}
