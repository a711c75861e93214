/**
 * Concurrency providers: the {@code "duplicating"} connection pool and the {@code "per-collection"} write policy.
 */
module io.quackjvm.concurrency {
    requires io.quackjvm.api;
    requires duckdb.jdbc;
    requires org.slf4j;

    provides io.quackjvm.api.spi.ConnectionPoolProvider with io.quackjvm.concurrency.DuplicatingPoolProvider;
    provides io.quackjvm.api.spi.WritePolicyProvider with io.quackjvm.concurrency.PerCollectionWritePolicyProvider;
}
