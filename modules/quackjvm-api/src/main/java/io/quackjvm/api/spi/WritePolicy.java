package io.quackjvm.api.spi;

import java.util.concurrent.locks.Lock;

/**
 * Decides which writers wait for each other. Must be thread-safe.
 *
 * <p>The engine takes the lock of a collection before the first write of a request and releases it after
 * the request's transaction has committed or rolled back. Readers never take it.
 */
public interface WritePolicy {

    /** The lock that serialises writes to the named collection (the same instance every time). */
    Lock lockFor(String collection);
}
