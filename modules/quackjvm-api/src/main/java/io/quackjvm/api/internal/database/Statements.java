package io.quackjvm.api.internal.database;

import io.quackjvm.api.DuckDBOptions;
import io.quackjvm.api.Operation;
import io.quackjvm.api.OperationListener;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.QueryCancelledException;
import io.quackjvm.api.QueryTimeoutException;
import com.googlecode.cqengine.query.option.QueryOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The one gate every query statement of a database passes: it bounds the statement (its timeout, the interrupt of
 * the thread waiting on it, the database's admission limit), and reports it once it ends (to the
 * {@link OperationListener}s, to JFR, and to the slow-statement log). A statement is one {@link Run}, opened
 * before it executes and closed once its result is read (for a streamed result, once its first rows are ready).
 *
 * <p>Cancelling is done by one watch thread for the whole library: a run that lasts longer than {@link #POLL} is
 * looked at every {@link #POLL} until it ends, and cancelled inside DuckDB ({@link Statement#cancel()}) once its
 * deadline has passed or its thread has been interrupted. The driver then fails the statement with a
 * {@link java.sql.SQLTimeoutException}, which {@link Failures} turns into the exception of why the run was
 * cancelled ({@link #cancellation}). Thread-safe.
 */
public final class Statements {

    private static final Logger SLOW = LoggerFactory.getLogger("io.quackjvm.slow");
    private static final Logger LOG = LoggerFactory.getLogger(Statements.class);

    /** How often a running statement is looked at for its deadline and its thread's interrupt. */
    static final long POLL = TimeUnit.MILLISECONDS.toNanos(10);

    /** Where {@code QuackCollection.retrieve} leaves the CQEngine query a call's statements come from. */
    public static final Object ORIGIN = new Object() {
        @Override
        public String toString() {
            return "quackjvm.query";
        }
    };

    private static final ScheduledThreadPoolExecutor WATCH = watchThread();

    /** What each thread is running now, and the last of its runs that was cancelled. */
    private static final ThreadLocal<Runs> RUNS = ThreadLocal.withInitial(Runs::new);

    private final StatementSettings settings;
    private final Semaphore admission;
    private final long slowNanos;
    private final RunningStatements running;
    private final List<OperationListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean listening;

    Statements(StatementSettings settings, RunningStatements running) {
        this.settings = settings;
        this.running = running;
        this.admission = settings.maxConcurrentQueries() > 0 ? new Semaphore(settings.maxConcurrentQueries(), true)
                : null;
        this.slowNanos = settings.slowThreshold() == null ? Long.MAX_VALUE : settings.slowThreshold().toNanos();
    }

    private static ScheduledThreadPoolExecutor watchThread() {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "quackjvm-statement-watch");
            t.setDaemon(true);
            return t;
        });
        e.setRemoveOnCancelPolicy(true);
        return e;
    }

    /** Adds a listener; it hears every statement and write that ends from now on. */
    public void addListener(OperationListener listener) {
        listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
        listening = true;
    }

    /** Removes a listener added with {@link #addListener}; nothing when it was not added. */
    public void removeListener(OperationListener listener) {
        listeners.remove(listener);
        listening = !listeners.isEmpty();
    }

    /** The timeout of a call: its own ({@link DuckDBOptions} in {@code options}), else the database's. */
    public Duration timeoutOf(QueryOptions options) {
        Object own = options == null ? null : options.get(DuckDBOptions.class);
        return own instanceof DuckDBOptions d ? d.timeout() : settings.queryTimeout();
    }

    /** The CQEngine query {@code options} came with, or {@code null}. */
    public static Object originOf(QueryOptions options) {
        return options == null ? null : options.get(ORIGIN);
    }

    /**
     * Starts a run of {@code statement}, about to execute: waits for admission when {@code operation} is subject
     * to it, registers it so that closing the database cancels it, and arms its watch.
     *
     * @param collection the collection it serves, or {@code null}
     * @param sql        its SQL, for reports
     * @param timeout    its timeout, or {@code null} for none
     * @param origin     the CQEngine query it comes from, or {@code null}
     * @throws QueryCancelledException when the thread is interrupted before it runs or while it waits its turn
     * @throws QueryTimeoutException   when its turn does not come within the admission timeout
     */
    public Run start(Statement statement, Operation operation, String collection, String sql, Duration timeout,
                     Object origin) {
        Runs runs = RUNS.get();
        runs.cancelled = null;
        if (Thread.currentThread().isInterrupted()) {
            throw new QueryCancelledException(describe(operation, collection) + " was not started: the thread was "
                    + "interrupted. Its interrupt status is kept; clear it (Thread.interrupted()) before using the "
                    + "database again on this thread", null);
        }
        boolean admitted = false;
        // A statement run while the thread already holds a turn (a lookup inside a retrieval's batch) shares it:
        // waiting for a second one could wait for itself.
        if (admission != null && operation != Operation.LOOKUP && (runs.current == null || !runs.current.admitted)) {
            admit(operation, collection);
            admitted = true;
        }
        Run run = new Run(this, runs, statement, operation, collection, sql, timeout, origin, admitted);
        try {
            running.started(statement);
        } catch (RuntimeException e) {
            if (admitted) {
                admission.release();
            }
            throw e;
        }
        runs.current = run;
        run.arm();
        return run;
    }

    private void admit(Operation operation, String collection) {
        Duration wait = settings.admissionTimeout();
        try {
            if (!admission.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new QueryTimeoutException(describe(operation, collection) + " waited " + wait + " for its "
                        + "turn and did not run: maxConcurrentQueries(" + settings.maxConcurrentQueries() + ") "
                        + "queries were running all that time. Raise maxConcurrentQueries or admissionTimeout, or "
                        + "run fewer long queries at once; see docs/operations.md", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryCancelledException(describe(operation, collection) + " was not started: the thread was "
                    + "interrupted while it waited for its turn (maxConcurrentQueries). Its interrupt status is "
                    + "kept", e);
        }
    }

    private static String describe(Operation operation, String collection) {
        String what = switch (operation) {
            case LOOKUP -> "A lookup";
            case RETRIEVAL -> "A retrieval";
            case COUNT -> "A count";
            case AGGREGATE -> "An aggregate";
            case SQL -> "A SQL statement";
            case EXPORT -> "An export";
            default -> "A statement";
        };
        return collection == null ? what : what + " of collection '" + collection + "'";
    }

    /**
     * The exception for a statement the driver failed as interrupted ({@code cause}), when one of this thread's
     * runs was cancelled: the timeout's, the interrupt's, or the closed database's. {@code null} when no run of
     * this thread was cancelled, so that {@link Failures} words it as any other failure.
     */
    static QuackException cancellation(String action, String sql, SQLException cause) {
        Runs runs = RUNS.get();
        Run run = runs.current != null && (runs.current.outcome != Run.RUNNING || runs.current.owner.running.closed())
                ? runs.current : runs.cancelled;
        if (run == null) {
            return null;
        }
        runs.cancelled = null;
        return run.exception(action, cause);
    }

    /** Reports a write that did not run as one statement through {@link #start}: an add, a remove, a bulk load. */
    public void reportWrite(String collection, Operation operation, long nanos, long rows, boolean failed) {
        if (listening) {
            tell(collection, operation, nanos, rows, failed);
        }
    }

    /** Reports a wait of a writer for a collection's write lock. */
    public void reportLockWait(String collection, long nanos) {
        if (listening) {
            for (OperationListener l : listeners) {
                try {
                    l.writeLockWaited(collection, nanos);
                } catch (RuntimeException e) {
                    LOG.warn("An OperationListener failed on a write-lock wait: {}", e.toString());
                }
            }
        }
    }

    /** Reports a write conflict. */
    public void reportConflict(String collection) {
        if (listening) {
            for (OperationListener l : listeners) {
                try {
                    l.writeConflicted(collection);
                } catch (RuntimeException e) {
                    LOG.warn("An OperationListener failed on a write conflict: {}", e.toString());
                }
            }
        }
    }

    private void tell(String collection, Operation operation, long nanos, long rows, boolean failed) {
        for (OperationListener l : listeners) {
            try {
                l.operationEnded(collection, operation, nanos, rows, failed);
            } catch (RuntimeException e) {
                LOG.warn("An OperationListener failed on a {} of '{}': {}", operation, collection, e.toString());
            }
        }
    }

    /** What one thread runs now, and its last cancelled run, for {@link #cancellation}. */
    private static final class Runs {
        Run current;
        Run cancelled;
    }

    /**
     * One statement from {@link #start} to {@link #close()}. Its methods other than {@code close} and
     * {@link #rows} are for the watch thread. Closing is idempotent.
     */
    public static final class Run implements AutoCloseable {
        static final int RUNNING = 0;
        static final int TIMED_OUT = 1;
        static final int INTERRUPTED = 2;

        private final Statements owner;
        private final Runs runs;
        private final Run previous;
        private final Statement statement;
        private final Operation operation;
        private final String collection;
        private final String sql;
        private final Object origin;
        private final Duration timeout;
        private final Thread thread;
        private final long start;
        /** {@code start + timeout}, or {@code Long.MAX_VALUE}-like "none" when {@link #timeout} is null. */
        private final long deadline;
        final boolean admitted;
        private final StatementEvents.Event jfr;
        private long rows = -1;
        private boolean failed = true;
        /** Guarded by this. */
        private ScheduledFuture<?> watch;
        /** Guarded by this. */
        private boolean closed;
        volatile int outcome = RUNNING;

        private Run(Statements owner, Runs runs, Statement statement, Operation operation, String collection,
                    String sql, Duration timeout, Object origin, boolean admitted) {
            this.owner = owner;
            this.runs = runs;
            this.previous = runs.current;
            this.statement = statement;
            this.operation = operation;
            this.collection = collection;
            this.sql = sql;
            this.origin = origin;
            this.timeout = timeout;
            this.admitted = admitted;
            this.thread = Thread.currentThread();
            this.jfr = StatementEvents.begin();
            this.start = System.nanoTime();
            this.deadline = timeout == null ? 0 : start + timeout.toNanos();
        }

        private void arm() {
            long first = timeout == null ? POLL : Math.min(POLL, deadline - System.nanoTime());
            synchronized (this) {
                watch = WATCH.schedule(this::look, Math.max(first, 0), TimeUnit.NANOSECONDS);
            }
        }

        /** On the watch thread: cancels the statement when its time is up or its thread interrupted. */
        private void look() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                long now = System.nanoTime();
                int why = thread.isInterrupted() ? INTERRUPTED
                        : timeout != null && now - deadline >= 0 ? TIMED_OUT : RUNNING;
                if (why == RUNNING) {
                    long next = timeout == null ? POLL : Math.min(POLL, deadline - now);
                    watch = WATCH.schedule(this::look, Math.max(next, 0), TimeUnit.NANOSECONDS);
                    return;
                }
                outcome = why;
                try {
                    statement.cancel();
                } catch (SQLException e) {
                    LOG.debug("Cancelling a statement failed: {}", e.getMessage());
                }
            }
        }

        /** The rows the statement returned, for the reports. */
        public void rows(long count) {
            this.rows = count;
        }

        /** Marks the run as ended without an exception; a run closed without it is reported as failed. */
        public void succeeded() {
            this.failed = false;
        }

        /** The exception of this cancelled run, for {@link Statements#cancellation}. */
        private QuackException exception(String action, SQLException cause) {
            String what = action + (sql == null ? "" : " (SQL: " + SqlText.elide(sql) + ")");
            if (outcome == RUNNING) {
                return owner.running.cancelledByClose(action, cause);
            }
            if (outcome == TIMED_OUT) {
                return new QueryTimeoutException(what + " ran longer than its timeout of " + timeout + " and was "
                        + "cancelled. Give the call a longer time (DuckDBOptions.timeout, QueryResult.timeout or the "
                        + "builder's queryTimeout), or ask for less; database.explain shows the plan", cause);
            }
            return new QueryCancelledException(what + " was cancelled because its thread was interrupted; the "
                    + "thread's interrupt status is kept", cause);
        }

        /** Ends the run: disarms its watch, frees its turn, and reports it. */
        @Override
        public void close() {
            ScheduledFuture<?> w;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                w = watch;
            }
            if (w != null) {
                w.cancel(false);
            }
            long nanos = System.nanoTime() - start;
            runs.current = previous;
            if (outcome != RUNNING || owner.running.closed()) {
                runs.cancelled = this;
            }
            owner.running.finished(statement);
            if (admitted) {
                owner.admission.release();
            }
            report(nanos);
        }

        private void report(long nanos) {
            if (owner.listening) {
                owner.tell(collection, operation, nanos, rows, failed);
            }
            if (jfr != null) {
                StatementEvents.end(jfr, sql, collection, operation, rows);
            }
            if (nanos >= owner.slowNanos && SLOW.isWarnEnabled()) {
                SLOW.warn("Slow statement: {} ms, {} rows, {}{}: {}", nanos / 1_000_000, rows < 0 ? "?" : rows,
                        operation.name().toLowerCase(java.util.Locale.ROOT),
                        collection == null ? "" : " of '" + collection + "'",
                        SqlText.elide(sql) + (origin == null ? "" : " (query: " + origin + ")"));
            }
        }
    }
}
