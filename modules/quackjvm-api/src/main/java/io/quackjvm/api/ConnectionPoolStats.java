package io.quackjvm.api;

/**
 * The connection pool of a database now, from {@link DuckDBDatabase#poolStats()} or
 * {@link DuckDBPersistence#poolStats()}.
 *
 * @param inUse connections lent to requests, results and bulk loads now
 * @param idle  connections kept for reuse ({@link DatabaseConfig#maxPooledConnections(int)} at most)
 */
public record ConnectionPoolStats(int inUse, int idle) {
}
