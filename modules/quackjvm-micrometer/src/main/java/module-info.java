/**
 * Micrometer meters for quackjvm: bind a {@link io.quackjvm.api.DuckDBDatabase} or a
 * {@link io.quackjvm.api.DuckDBPersistence} to a {@code MeterRegistry} with
 * {@link io.quackjvm.micrometer.QuackMetrics}.
 */
module io.quackjvm.micrometer {
    requires transitive io.quackjvm.api;
    requires transitive micrometer.core;

    exports io.quackjvm.micrometer;
}
