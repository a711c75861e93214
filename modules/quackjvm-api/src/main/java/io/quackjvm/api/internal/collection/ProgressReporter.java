package io.quackjvm.api.internal.collection;

import io.quackjvm.api.Progress;
import io.quackjvm.api.ProgressListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Reports the progress of one collection's long operations (bulk loads, large {@code addAll}s, optimize, compact)
 * to the user's {@link ProgressListener} when one is set, and otherwise to the log: at INFO at most once every
 * {@link #LOG_EVERY_NANOS}, and once at the end of an operation that logged on its way or ran for longer than that.
 * A listener's exception is logged and swallowed. It only reports: it never decides what an operation does.
 * Thread-safe; each {@link Tracker} belongs to the thread running its operation.
 */
final class ProgressReporter {

    private static final Logger LOG = LoggerFactory.getLogger("io.quackjvm.progress");
    /** The log line interval; the listener is told at every step. */
    static final long LOG_EVERY_NANOS = 5_000_000_000L;

    private final String collection;
    private volatile ProgressListener listener;

    ProgressReporter(String collection) {
        this.collection = collection;
    }

    void listener(ProgressListener l) {
        this.listener = l;
    }

    /** Starts tracking one operation of {@code expected} rows ({@code -1} when unknown). */
    Tracker start(String operation, long expected) {
        return new Tracker(operation, expected);
    }

    /** One running operation. */
    final class Tracker {
        private final String operation;
        private final long expected;
        private final long started = System.nanoTime();
        private long lastLog = started;
        private long done;
        private boolean logged;
        private boolean finished;

        private Tracker(String operation, long expected) {
            this.operation = operation;
            this.expected = expected;
        }

        long done() {
            return done;
        }

        /** {@code rows} more rows are done. */
        void advance(long rows) {
            if (finished) {
                return;
            }
            done += rows;
            report(false);
        }

        /** The operation ended (committed, or failed and rolled back); later calls do nothing. */
        void finish() {
            if (finished) {
                return;
            }
            finished = true;
            report(true);
        }

        private void report(boolean last) {
            long now = System.nanoTime();
            Progress p = new Progress(operation, collection, done, expected, Duration.ofNanos(now - started), last);
            ProgressListener l = listener;
            if (l != null) {
                try {
                    l.onProgress(p);
                } catch (RuntimeException e) {
                    LOG.warn("The progress listener of collection '{}' threw; ignored", collection, e);
                }
            } else if (LOG.isInfoEnabled() && (last ? logged || now - started >= LOG_EVERY_NANOS
                    : now - lastLog >= LOG_EVERY_NANOS)) {
                LOG.info("{}", p);
                lastLog = now;
                logged = true;
            }
        }
    }
}
