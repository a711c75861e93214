package io.quackjvm.testkit;

import io.quackjvm.api.spi.WritePolicy;
import io.quackjvm.api.spi.WritePolicyProvider;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of a {@link WritePolicyProvider}: a policy hands out one lock per collection; a serialising
 * policy makes a second writer wait; a non-serialising one never blocks.
 */
public abstract class WritePolicyContract extends ProviderContract<WritePolicyProvider> {

    private static boolean tryLockOnAnotherThread(Lock lock) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                boolean got = lock.tryLock(50, TimeUnit.MILLISECONDS);
                if (got) {
                    lock.unlock();
                }
                return got;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }).get(10, TimeUnit.SECONDS);
    }

    @Test
    public void givesTheSameLockForTheSameCollectionOnEveryThread() throws Exception {
        for (boolean serialize : new boolean[] {true, false}) {
            WritePolicy policy = provider().create(serialize);
            Lock lock = policy.lockFor("cars");
            assertNotNull(lock);
            assertSame(lock, policy.lockFor("cars"));
            assertSame(lock, CompletableFuture.supplyAsync(() -> policy.lockFor("cars")).get(10, TimeUnit.SECONDS),
                    "lockFor must return the same lock on every thread");
        }
    }

    @Test
    public void aSerialisingPolicyMakesASecondWriterWait() throws Exception {
        Lock lock = provider().create(true).lockFor("cars");
        lock.lock();
        try {
            assertFalse(tryLockOnAnotherThread(lock), "A second writer must wait while the first holds the lock");
        } finally {
            lock.unlock();
        }
        assertTrue(tryLockOnAnotherThread(lock), "The lock must be free again after unlock");
    }

    @Test
    public void aNonSerialisingPolicyNeverBlocks() throws Exception {
        Lock lock = provider().create(false).lockFor("cars");
        lock.lock();
        try {
            assertTrue(tryLockOnAnotherThread(lock), "serializeWrites(false) must never make a writer wait");
        } finally {
            lock.unlock();
        }
    }
}
