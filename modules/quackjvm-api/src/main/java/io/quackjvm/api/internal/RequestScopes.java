package io.quackjvm.api.internal;

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
final class RequestScopes {

    private final CollectionTable<?, ?> table;
    /** The key under which this collection's scopes are stored in a QueryOptions. */
    private final Object key = new Object();

    RequestScopes(CollectionTable<?, ?> table) {
        this.table = table;
    }

    @SuppressWarnings("unchecked")
    private Map<Thread, RequestScope> slot(QueryOptions options, boolean create) {
        Object slot = options.get(key);
        if (slot == null && create) {
            synchronized (options) {
                slot = options.get(key);
                if (slot == null) {
                    slot = new ConcurrentHashMap<Thread, RequestScope>();
                    options.put(key, slot);
                }
            }
        }
        return (Map<Thread, RequestScope>) slot;
    }

    void open(QueryOptions options) {
        table.checkOpen();
        slot(options, true).computeIfAbsent(Thread.currentThread(), t -> new RequestScope(table));
    }

    /**
     * Ends this thread's request, as CQEngine's own request scope does: the first close ends it, even when opens
     * were nested. CQEngine itself leaves some inner result sets unclosed (TransactionalIndexedCollection's
     * retainAll), so counting opens would leave such a request, and its transaction, open for ever. A close on
     * a thread with no request of its own (a result set handed to another thread) has nothing to end: the
     * result set closes its own cursors.
     */
    void close(QueryOptions options) {
        Map<Thread, RequestScope> slot = slot(options, false);
        if (slot == null) {
            return;
        }
        RequestScope scope = slot.remove(Thread.currentThread());
        if (scope != null) {
            scope.finish();
        }
    }

    /** This thread's scope in {@code options}, or {@code null}. */
    RequestScope current(QueryOptions options) {
        if (options == null) {
            return null;
        }
        Map<Thread, RequestScope> slot = slot(options, false);
        return slot == null ? null : slot.get(Thread.currentThread());
    }
}
