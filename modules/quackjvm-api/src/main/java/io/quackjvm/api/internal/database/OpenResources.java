package io.quackjvm.api.internal.database;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything of one database that outlives the call that opened it and holds a pooled connection: streaming
 * cursors (the results and iterators an application reads at its own pace) and write transactions of requests
 * still open. It owns three duties and nothing else:
 * <ul>
 *   <li>{@link Database#close()} releases whatever is still registered, so that closing always closes the
 *   database and releases its file, even when the application forgot a result;</li>
 *   <li>a cursor the application dropped without closing is released when the garbage collector finds it
 *   (a {@link Cleaner}), so its native memory (DuckDB's pipeline, Arrow buffers) does not stay for ever.</li>
 * </ul>
 * It never asks for a garbage collection: what keeps dropped cursors bounded between collections is that an open
 * cursor holds little native memory (each connection streams through a small buffer, see {@link Database}), and
 * that reading a cursor allocates on the Java heap, so the collector runs as the application reads. An
 * application that keeps many cursors open on purpose therefore pays only their native memory, nothing more.
 * Thread-safe.
 */
public final class OpenResources {

    private static final Logger LOG = LoggerFactory.getLogger(OpenResources.class);
    /** One daemon thread for the whole library. */
    private static final Cleaner CLEANER = Cleaner.create();

    private final Set<Held> held = ConcurrentHashMap.newKeySet();
    private final boolean recordOrigins;

    public OpenResources(boolean recordOrigins) {
        this.recordOrigins = recordOrigins;
    }

    /**
     * Something that holds a connection until it is released: by its owner, by {@link Database#close()}
     * (which also invalidates it), or by the {@link Cleaner} once its owner is unreachable.
     */
    public abstract static class Held implements Runnable {
        private final OpenResources registry;
        private final Throwable origin;
        private boolean released;
        private volatile boolean invalidated;

        public Held(OpenResources registry, String what) {
            this.registry = registry;
            this.origin = registry.recordOrigins ? new Throwable(what + " opened here") : null;
        }

        /** Frees what it holds; called once, under this object's lock. */
        protected abstract void free();

        /** Releases it; later calls do nothing. */
        public final synchronized void release() {
            if (released) {
                return;
            }
            released = true;
            registry.held.remove(this);
            free();
        }

        /**
         * Takes it out of the registry without freeing it, for an owner that ends it normally.
         *
         * @return {@code false} when it had already been released (by {@link Database#close()})
         */
        public final synchronized boolean detach() {
            if (released) {
                return false;
            }
            released = true;
            registry.held.remove(this);
            return true;
        }

        /** {@code true} once {@link Database#close()} released it: using its owner again must fail. */
        public final boolean invalidated() {
            return invalidated;
        }

        public final synchronized boolean released() {
            return released;
        }

        /** The cleaner's entry point: the owner became unreachable without being closed. */
        @Override
        public final void run() {
            if (!released()) {
                if (origin != null) {
                    LOG.warn("A quackjvm result was dropped without being closed; released it now", origin);
                } else {
                    LOG.debug("A quackjvm result was dropped without being closed; released it now");
                }
            }
            release();
        }
    }

    /**
     * Registers {@code held}; when {@code owner} is given, {@code held} is also released once the owner becomes
     * unreachable. {@code held} must not refer to {@code owner}.
     */
    public void register(Held held, Object owner) {
        this.held.add(held);
        if (owner != null) {
            CLEANER.register(owner, held);
        }
    }

    /** How many are registered and not yet released. */
    public int count() {
        return held.size();
    }

    /**
     * Releases and invalidates everything still registered (for {@link Database#close()}).
     *
     * @return the origins of what was open, or empty throwables' worth of {@code null}s when not recorded
     */
    public List<Throwable> releaseAll() {
        List<Throwable> origins = new ArrayList<>();
        for (Held h : List.copyOf(held)) {
            h.invalidated = true;
            boolean wasOpen = !h.released();
            h.release();
            if (wasOpen) {
                origins.add(h.origin);
            }
        }
        return origins;
    }
}
