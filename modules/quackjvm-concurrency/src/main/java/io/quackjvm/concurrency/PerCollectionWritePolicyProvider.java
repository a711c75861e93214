package io.quackjvm.concurrency;

import io.quackjvm.api.spi.WritePolicy;
import io.quackjvm.api.spi.WritePolicyProvider;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@code "per-collection"} write policy. Two DuckDB transactions writing one table at once make one of
 * them fail with a conflict, so writers of one collection take turns; two collections are two tables, which
 * cannot conflict, so they never wait for each other. With {@code serializeWrites(false)} nobody waits.
 */
public final class PerCollectionWritePolicyProvider implements WritePolicyProvider {

    @Override
    public String name() {
        return "per-collection";
    }

    @Override
    public WritePolicy create(boolean serializeWrites) {
        if (!serializeWrites) {
            return collection -> NoLock.INSTANCE;
        }
        Map<String, Lock> locks = new ConcurrentHashMap<>();
        return collection -> locks.computeIfAbsent(collection, c -> new ReentrantLock());
    }

    /** A lock that never blocks. */
    private enum NoLock implements Lock {
        INSTANCE;

        @Override public void lock() { }
        @Override public void lockInterruptibly() { }
        @Override public boolean tryLock() { return true; }
        @Override public boolean tryLock(long time, TimeUnit unit) { return true; }
        @Override public void unlock() { }
        @Override public Condition newCondition() {
            throw new UnsupportedOperationException("No conditions on a lock that never blocks");
        }
    }
}
