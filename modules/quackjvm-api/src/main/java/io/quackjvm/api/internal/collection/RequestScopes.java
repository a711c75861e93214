package io.quackjvm.api.internal.collection;

import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the request scopes of one collection inside CQEngine's {@link QueryOptions}.
 *
 * <p>CQEngine hands every no-argument call of a collection the same {@code QueryOptions} instance, from every
 * thread, so a scope is kept per thread within it: two threads never share a connection (sharing one
 * deadlocks inside DuckDB's JDBC driver), even when an application shares one QueryOptions between threads.
 * Nested requests on one thread share the outer scope.
 */
public final class RequestScopes {

    private final CollectionTable<?, ?> table;
    /** The key under which this collection's scopes are stored in a QueryOptions. */
    private final Object key = new Object();

    RequestScopes(CollectionTable<?, ?> table) {
        this.table = table;
    }

    /**
     * The scopes kept in one QueryOptions. CQEngine makes a QueryOptions per call, used by the thread that made
     * it, so that thread's scope is a plain field (read and written by that thread only): no map is allocated on
     * the path of every lookup. Other threads sharing the QueryOptions get a map, made on first need.
     */
    private static final class Slot {
        final Thread owner = Thread.currentThread();
        /** The owner thread's scope; touched by the owner thread only. */
        RequestScope ownerScope;
        private volatile Map<Thread, RequestScope> others;

        Map<Thread, RequestScope> others(boolean create) {
            Map<Thread, RequestScope> m = others;
            if (m == null && create) {
                synchronized (this) {
                    m = others;
                    if (m == null) {
                        m = new ConcurrentHashMap<>();
                        others = m;
                    }
                }
            }
            return m;
        }
    }

    /**
     * The slot in {@code options}, read and written under the options' lock: CQEngine's QueryOptions is a plain
     * map, and other threads sharing it may be adding their slot at the same moment.
     */
    private Slot slot(QueryOptions options, boolean create) {
        synchronized (options) {
            Object slot = options.get(key);
            if (slot == null && create) {
                slot = new Slot();
                options.put(key, slot);
            }
            return (Slot) slot;
        }
    }

    public void open(QueryOptions options) {
        table.checkOpen();
        Slot slot = slot(options, true);
        Thread me = Thread.currentThread();
        if (slot.owner == me) {
            if (slot.ownerScope == null) {
                slot.ownerScope = new RequestScope(table);
            }
        } else {
            slot.others(true).computeIfAbsent(me, t -> new RequestScope(table));
        }
    }

    /**
     * Ends this thread's request, as CQEngine's own request scope does: the first close ends it, even when opens
     * were nested. CQEngine itself leaves some inner result sets unclosed (TransactionalIndexedCollection's
     * retainAll), so counting opens would leave such a request, and its transaction, open for ever. A close on
     * a thread with no request of its own (a result set handed to another thread) has nothing to end: the
     * result set closes its own cursors.
     */
    public void close(QueryOptions options) {
        Slot slot = slot(options, false);
        if (slot == null) {
            return;
        }
        Thread me = Thread.currentThread();
        RequestScope scope;
        if (slot.owner == me) {
            scope = slot.ownerScope;
            slot.ownerScope = null;
        } else {
            Map<Thread, RequestScope> others = slot.others(false);
            scope = others == null ? null : others.remove(me);
        }
        if (scope != null) {
            scope.finish();
        }
    }

    /** This thread's scope in {@code options}, or {@code null}. */
    RequestScope current(QueryOptions options) {
        if (options == null) {
            return null;
        }
        Slot slot = slot(options, false);
        if (slot == null) {
            return null;
        }
        Thread me = Thread.currentThread();
        if (slot.owner == me) {
            return slot.ownerScope;
        }
        Map<Thread, RequestScope> others = slot.others(false);
        return others == null ? null : others.get(me);
    }
}
