package io.quackjvm.api.internal;

import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.QuackException;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the request scopes of one collection inside CQEngine's {@link QueryOptions}.
 *
 * <p>CQEngine hands every no-argument call of a collection the same {@code QueryOptions} instance, from every
 * thread, so a scope is kept per thread within it: two threads never share a connection (sharing one
 * deadlocks inside DuckDB's JDBC driver). Nested requests on one thread share the outer scope.
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
        table.database().checkOpen();
        Map<Thread, RequestScope> slot = slot(options, true);
        RequestScope scope = slot.computeIfAbsent(Thread.currentThread(), t -> new RequestScope(table));
        scope.depth++;
    }

    void close(QueryOptions options) {
        Map<Thread, RequestScope> slot = slot(options, false);
        if (slot == null) {
            return;
        }
        RequestScope scope = slot.get(Thread.currentThread());
        if (scope == null) {
            // A result set closed on another thread than the one that retrieved it: close that reader's scope
            // when it is unambiguous, otherwise the same QueryOptions is in use by several threads at once.
            if (slot.size() == 1) {
                RequestScope only = slot.values().iterator().next();
                if (only.depth == 1 && only.activeWrite() == null) {
                    slot.remove(only.owner, only);
                    return;
                }
            }
            if (!slot.isEmpty()) {
                throw new QuackException("A QueryOptions of collection '" + table.name() + "' is being used by "
                        + "several threads at once (open requests on " + slot.keySet() + ", closed from "
                        + Thread.currentThread() + "). Build a fresh QueryOptions for every operation instead of "
                        + "sharing one between threads.");
            }
            return;
        }
        if (--scope.depth == 0) {
            slot.remove(scope.owner, scope);
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
