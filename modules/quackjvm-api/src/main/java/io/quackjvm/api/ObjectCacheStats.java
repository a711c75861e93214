package io.quackjvm.api;

/**
 * What a collection's object cache ({@link DuckDBPersistence.Builder#objectCacheSize(int)}) has done since the
 * collection was opened, from {@link DuckDBPersistence#cacheStats()}. All zero when the cache is off.
 *
 * @param hits      lookups by primary key answered from the cache, without DuckDB
 * @param misses    lookups by primary key that went to DuckDB (a key that is not stored counts as a miss)
 * @param evictions objects dropped to keep the cache within {@code maxSize} (invalidations by writes are not
 *                  counted)
 * @param size      objects in the cache now
 * @param maxSize   the bound set with {@code objectCacheSize}; 0 when the cache is off
 */
public record ObjectCacheStats(long hits, long misses, long evictions, long size, long maxSize) {

    /** {@code hits / (hits + misses)}, or 0 before any lookup. */
    public double hitRate() {
        long lookups = hits + misses;
        return lookups == 0 ? 0.0 : (double) hits / lookups;
    }
}
