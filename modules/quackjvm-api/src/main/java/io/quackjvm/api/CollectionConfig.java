package io.quackjvm.api;

import io.quackjvm.api.spi.ObjectLayoutProvider;

/**
 * The settings of one collection, with their one definition: {@link DuckDBDatabase.CollectionBuilder} takes them
 * for a collection of a shared database, {@link DuckDBPersistence.Builder} for a collection with a database of its
 * own (whose database settings are in {@link DatabaseConfig}).
 *
 * <p>Every method validates its argument at once and throws {@link IllegalArgumentException} naming the bad value;
 * setting the same option twice throws {@link IllegalStateException}. A builder is not thread-safe.
 *
 * @param <O> the type of the stored objects
 * @param <B> the builder, returned by every method for chaining
 */
public interface CollectionConfig<O, B extends CollectionConfig<O, B>> {

    /**
     * The collection's name, unique in its database, and the name SQL sees it by (default: the object class's
     * simple name in snake case).
     *
     * @throws IllegalArgumentException unless it starts with a letter and holds only letters, digits and
     *                                  underscores
     */
    B name(String name);

    /**
     * Lets the {@code "blob"} layout read objects of these classes from stored rows, beyond those it allows by
     * itself: the object class, the declared types of its fields (and of theirs, and so on), the permitted
     * subclasses of a sealed type among them, and the JDK's value and collection types. Needed for a subclass
     * stored in a field declared as its superclass, an interface or {@code Object}. A row naming any other class
     * is refused without building it, so a database file from an untrusted source cannot make this process
     * instantiate a class it did not choose (docs/reliability.md).
     *
     * @throws NullPointerException when a class is null
     */
    B allowClasses(Class<?>... classes);

    /**
     * Lets the {@code "blob"} layout read objects of every class in these packages (not their subpackages) from
     * stored rows; see {@link #allowClasses(Class[])}. The JDK's own packages cannot be allowed whole.
     *
     * @throws IllegalArgumentException when a name is not a package name or names a JDK package
     */
    B allowPackages(String... packages);

    /** Uses this object layout instead of the discovered {@code "blob"} layout. */
    B layout(ObjectLayoutProvider provider);

    /**
     * Uses the object layout provider with this name, discovered with {@link java.util.ServiceLoader}.
     *
     * @throws ProviderException at build time when no provider, or more than one, has that name
     */
    B layout(String providerName);

    /**
     * Stores each object as one typed DuckDB column per field, described by {@code columnarLayout}, instead of one
     * serialised BLOB: smaller (DuckDB compresses each column) and queryable with plain SQL. Selects the discovered
     * {@code "columnar"} layout provider unless {@link #layout(ObjectLayoutProvider)} names another provider that
     * understands a {@link ColumnarLayout}. See docs/columnar.md for the types.
     *
     * @throws IllegalArgumentException when the layout describes a class that is not the primary key's object type
     *                                  or one of its supertypes
     */
    B columnarLayout(ColumnarLayout<? super O> columnarLayout);

    /**
     * Write batches larger than this go through DuckDB's Appender instead of prepared statements (default 16).
     *
     * @throws IllegalArgumentException when {@code rows} is less than 1
     */
    B appenderThreshold(int rows);

    /**
     * Rows appended between flushes during a bulk load (default 131072).
     *
     * @throws IllegalArgumentException when {@code rows} is less than 1
     */
    B stagingChunkRows(int rows);

    /**
     * Keeps up to {@code objects} materialised objects on the heap, by primary key (default 0: no cache). A lookup
     * by key ({@code retrieve(equal(key, k))}, an {@code in} on the key whose keys are all cached,
     * {@code contains}) that finds its object there runs no SQL and borrows no connection; a miss reads DuckDB as
     * without the cache and keeps what it read. Scans, ranges and attribute-index queries do not use it. The least
     * recently and frequently used objects are evicted beyond the bound.
     *
     * <p>Never stale: every write to the collection (add, remove, update, clear, {@code Iterator.remove}, a
     * rolled-back transaction) drops the keys it changes before it commits, and a lookup that read a row while a
     * write to it was in progress does not keep it. A hit hands out the cached instance itself, as an on-heap
     * collection does: treat stored objects as immutable (mutating one changes what later lookups see, not what is
     * stored). Costs heap for the objects plus about 100 bytes per entry; see {@link DuckDBPersistence#cacheStats()}
     * and docs/tuning.md.
     *
     * @throws IllegalArgumentException when {@code objects} is negative
     */
    B objectCacheSize(int objects);

    /**
     * Receives the progress of the collection's long operations: bulk loads ({@link DuckDBBulkWriter}, large
     * {@code addAll}s), {@link DuckDBPersistence#optimize()} and {@link DuckDBPersistence#compact()}. Without one,
     * progress is only logged (SLF4J logger {@code io.quackjvm.progress}, INFO, at most every 5 seconds and once
     * at the end of an operation that ran longer); with one, it is not logged.
     */
    B progressListener(ProgressListener listener);
}
