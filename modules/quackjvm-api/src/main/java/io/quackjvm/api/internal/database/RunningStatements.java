package io.quackjvm.api.internal.database;

import io.quackjvm.api.PersistenceClosedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The statements running now on behalf of callers of one database, and whether the database still takes new ones:
 * closing the database stops taking them, cancels those running and waits, bounded, until their callers are done.
 * Thread-safe.
 */
public final class RunningStatements {

    private static final Logger LOG = LoggerFactory.getLogger(RunningStatements.class);

    /** How long {@link #closeAndCancel()} waits for cancelled statements to stop. */
    private static final long CANCEL_WAIT_MILLIS = 30_000;

    /** Guarded by itself. */
    private final Set<Statement> running = new HashSet<>();
    private final Supplier<String> description;
    private volatile boolean closed;

    RunningStatements(Supplier<String> description) {
        this.description = description;
    }

    /** Whether the database has stopped taking statements (it is closed or closing). */
    boolean closed() {
        return closed;
    }

    /** Fails with {@link PersistenceClosedException} once the database is closed. */
    void checkOpen() {
        if (closed) {
            throw new PersistenceClosedException("The " + description.get() + " has been closed; open a new "
                    + "persistence to use it again");
        }
    }

    /**
     * Registers a statement about to run, so that closing the database cancels it and waits for {@link #finished}.
     *
     * @throws PersistenceClosedException when the database is closed
     */
    public void started(Statement statement) {
        synchronized (running) {
            checkOpen();
            running.add(statement);
        }
    }

    /** Ends what {@link #started} registered, once the statement and its connection are done with. */
    public void finished(Statement statement) {
        synchronized (running) {
            if (running.remove(statement)) {
                running.notifyAll();
            }
        }
    }

    /** The exception of a statement that closing cancelled, or {@code null} when the database is open. */
    public PersistenceClosedException cancelledByClose(String what, Throwable cause) {
        if (!closed) {
            return null;
        }
        PersistenceClosedException e = new PersistenceClosedException(what + " was cancelled: the "
                + description.get() + " was closed while it ran. Close the database only after its queries and bulk "
                + "loads have ended.");
        e.initCause(cause);
        return e;
    }

    /** Stops taking statements, cancels the running ones and waits, bounded, until their callers are done. */
    void closeAndCancel() {
        synchronized (running) {
            closed = true;
            for (Statement s : running) {
                try {
                    s.cancel();
                } catch (SQLException e) {
                    LOG.debug("Cancelling a statement of {} failed: {}", description.get(), e.getMessage());
                }
            }
            long deadline = System.currentTimeMillis() + CANCEL_WAIT_MILLIS;
            while (!running.isEmpty()) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    LOG.warn("Closing {}: {} cancelled statement(s) did not stop within {} ms", description.get(),
                            running.size(), CANCEL_WAIT_MILLIS);
                    return;
                }
                try {
                    running.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
