package io.quackjvm.api;

/**
 * Flags that change how a quackjvm collection carries out one CQEngine call, passed as CQEngine passes its own:
 * {@code queryOptions(enableFlags(DuckDBFlags.BULK_IMPORT))}. Constants only.
 */
public final class DuckDBFlags {

    /**
     * A load of objects whose keys are all new. Pass it with an update that removes nothing:
     * <pre>{@code
     * cars.update(List.of(), newCars, queryOptions(enableFlags(DuckDBFlags.BULK_IMPORT)));
     * }</pre>
     * The caller promises that no key of the load is stored and that no key appears twice in it, so the load
     * skips looking for stored objects to replace (the cost of an {@code addAll} into a collection that is not
     * empty) and streams every object through DuckDB's Appender. A broken promise fails the whole call with a
     * {@link QuackException} naming the key and this flag, and nothing of the load is stored; a stored object is
     * never replaced. Without the flag, {@code addAll} replaces a stored object whose key comes again.
     *
     * <p>Its value differs from CQEngine's {@code SQLiteIndexFlags.BULK_IMPORT}, which only asks SQLite indexes
     * to rebuild after the load and promises nothing about keys; that flag has no effect here.
     */
    public static final String BULK_IMPORT = "quackjvm.BULK_IMPORT";

    private DuckDBFlags() {
    }
}
