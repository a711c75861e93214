package io.quackjvm.bench.harness;

import java.util.ArrayList;
import java.util.List;

/** The measurements, in report order. Values are stored in {@link #unit}; lower is better for all of them. */
public enum Metric {
    LOAD_MS("load_ms", "Load N objects (one addAll)", "ms", "Time for one addAll of N objects into an empty collection with its indexes."),
    LOAD_US_PER_OBJECT("load_us_per_object", "Load, per object", "µs", "load_ms / N."),
    BULK_US_PER_OBJECT("bulk_us_per_object", "Bulk write into a loaded collection, per object", "µs", "One addAll of N/10 new objects into the loaded collection, divided by N/10."),
    LOOKUP_P50_US("lookup_p50_us", "Primary-key point lookup, median", "µs", "retrieve(equal(carId, k)) + read the object, random keys, after warm-up."),
    LOOKUP_P90_US("lookup_p90_us", "Primary-key point lookup, p90", "µs", "As above, 90th percentile."),
    LOOKUP_BYTES_P50_US("lookup_bytes_p50_us", "Point lookup without deserialising, median (raw floor only)", "µs", "The lookup SQL and getBytes, no Kryo: the database's share of a lookup."),
    QUERY_2PCT_MS("query2pct_ms", "Query returning ~2% (equal on manufacturer), median", "ms", "retrieve(equal(manufacturer, m)) and materialise every result."),
    COUNT_US("count_us", "Count matches (equal on manufacturer), median", "µs", "retrieve(equal(manufacturer, m)).size()."),
    RANGE_US("range_us", "Narrow range on price (~40 matches), median", "µs", "retrieve(between(price, lo, hi)) and materialise every result."),
    COUNT_OPT_US("count_opt_us", "Count matches after optimize(), median", "µs", "As 'count matches', after persistence.optimize() (only where it exists)."),
    RANGE_OPT_US("range_opt_us", "Narrow range after optimize(), median", "µs", "As 'narrow range', after persistence.optimize() (only where it exists)."),
    ITERATE_MS("iterate_ms", "Iterate everything, median", "ms", "retrieve(all(Car.class)) and materialise every object."),
    ADD_P50_US("add_p50_us", "Single add(), median", "µs", "One add() of a new object, auto-committed (durable for file-backed stores)."),
    ADD_P90_US("add_p90_us", "Single add(), p90", "µs", "As above, 90th percentile."),
    RSS_MB("rss_mb", "Process RSS after load + GC", "MB", "VmRSS from /proc/self/status after the load, the source list dropped, System.gc()."),
    HEAP_MB("heap_mb", "Java heap used after load + GC", "MB", "Heap used after System.gc(), source list dropped."),
    HEAP_COMMITTED_MB("heap_committed_mb", "Java heap committed after load + GC", "MB", "Heap the JVM still holds from the OS after System.gc(); RSS includes it."),
    NATIVE_MB("native_mb", "RSS minus committed heap after load + GC", "MB", "Roughly everything outside the Java heap: JVM overhead plus the database's own memory (DuckDB buffer pool, SQLite page cache, off-heap tables)."),
    RSS_END_MB("rss_end_mb", "Process RSS after the read measurements", "MB", "VmRSS again after lookups, queries and iteration."),
    RSS_OPT_MB("rss_opt_mb", "Process RSS after the optimize step", "MB", "VmRSS after the reads and the optimize step (optimize() where the persistence has one, which gives back the buffer pool's cached pages of a quackjvm file), then System.gc()."),
    BYTES_USED_MB("bytes_used_mb", "getBytesUsed() after load", "MB", "The persistence's own size figure (SQLite: page_count x page_size; quackjvm: file + WAL, or in-memory blocks)."),
    DISK_MB("disk_mb", "Files on disk after load", "MB", "Sum of every file in the configuration's scratch directory after the load.");

    public final String key;
    public final String title;
    public final String unit;
    public final String description;

    Metric(String key, String title, String unit, String description) {
        this.key = key;
        this.title = title;
        this.unit = unit;
        this.description = description;
    }

    public static List<Metric> scaling() {
        List<Metric> m = new ArrayList<>();
        m.add(LOAD_MS);
        m.add(LOOKUP_P50_US);
        m.add(COUNT_US);
        m.add(COUNT_OPT_US);
        m.add(RANGE_US);
        m.add(RANGE_OPT_US);
        m.add(DISK_MB);
        return m;
    }
}
