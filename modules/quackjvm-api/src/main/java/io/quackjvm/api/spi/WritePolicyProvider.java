package io.quackjvm.api.spi;

/**
 * Creates write policies. The shipped provider is {@code "per-collection"}: when writes are serialised,
 * one lock per collection (two collections of one database never wait for each other); when they are not,
 * a lock that never blocks.
 */
public interface WritePolicyProvider extends Provider {

    WritePolicy create(boolean serializeWrites);
}
