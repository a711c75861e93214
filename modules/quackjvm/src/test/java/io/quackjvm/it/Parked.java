package io.quackjvm.it;

import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A task on a thread of its own, and a wait until that thread is parked, as a thread waiting for a lock is. */
public final class Parked {

    private Parked() {
    }

    /** Runs {@code task} on a new thread named {@code name} and returns once that thread is parked. */
    public static <V> FutureTask<V> runUntilParked(String name, Callable<V> task) throws InterruptedException {
        FutureTask<V> future = new FutureTask<>(task);
        Thread t = new Thread(future, name);
        t.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Thread.State state;
        while ((state = t.getState()) != Thread.State.WAITING) {
            assertTrue(state != Thread.State.TERMINATED, name + " ended without waiting");
            assertTrue(System.nanoTime() < deadline, name + " did not wait within 60 s; its state: " + state);
            Thread.sleep(1);
        }
        return future;
    }
}
