package io.quackjvm.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.ObjectCacheStats;
import io.quackjvm.api.Operation;
import io.quackjvm.api.OperationListener;
import io.quackjvm.api.PersistenceClosedException;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Binds a quackjvm database to a Micrometer {@link MeterRegistry}: a timer per collection, operation and outcome,
 * write-lock waits and write conflicts per collection, the connection pool, each collection's object cache and the
 * size of the database.
 *
 * <pre>{@code
 * QuackMetrics metrics = new QuackMetrics(db, Tags.of("service", "shop"));
 * metrics.bindTo(registry);
 * ...
 * metrics.close();   // stops recording; the database stays open
 * }</pre>
 *
 * <p>Every meter carries the tags given to the constructor.
 * <ul>
 *   <li>{@code quackjvm.operations} (timer; tags {@code collection}, {@code operation}, {@code outcome}): each
 *       statement or write once it ends. {@code collection} is the collection's name, or {@code none} for a
 *       statement of {@link DuckDBDatabase#query} or a join; {@code operation} is the {@link Operation} in lower
 *       case ({@code lookup}, {@code bulk_write}, ...); {@code outcome} is {@code success} or {@code failure}.</li>
 *   <li>{@code quackjvm.write.lock.wait} (timer; tag {@code collection}): each wait of a writer for a collection's
 *       write lock (a writer that did not wait is not recorded).</li>
 *   <li>{@code quackjvm.write.conflicts} (counter; tag {@code collection}): writes that failed with a
 *       {@link io.quackjvm.api.WriteConflictException}.</li>
 *   <li>{@code quackjvm.pool.connections.active} and {@code quackjvm.pool.connections.idle} (gauges): connections
 *       lent now, and kept idle in the pool.</li>
 *   <li>{@code quackjvm.cache.hits}, {@code quackjvm.cache.misses}, {@code quackjvm.cache.evictions} (function
 *       counters) and {@code quackjvm.cache.size} (gauge), tag {@code collection}: the collection's object cache
 *       ({@link ObjectCacheStats}); zero when its cache is off.</li>
 *   <li>{@code quackjvm.bytes.used} (gauge, bytes): {@link DuckDBDatabase#getBytesUsed()}.</li>
 * </ul>
 *
 * <p>Bound to a {@link DuckDBDatabase}, the per-collection meters cover the collections open when
 * {@link #bindTo} is called and each collection built later, from its first operation on. Bound to a
 * {@link DuckDBPersistence}, the timers, counters and cache meters cover that collection alone, and the pool and
 * size gauges its database (for a collection of a {@code DuckDBDatabase}, the whole database).
 *
 * <p>The gauges and function counters hold the database weakly and read {@code NaN} once it (or the collection) is
 * closed; they never throw. Reading {@code quackjvm.bytes.used} of a file database runs a checkpoint, as
 * {@code getBytesUsed()} does. Recording an operation costs a map lookup and the timer's own work, on the thread
 * that did the operation; it never uses the database. Thread-safe.
 */
public final class QuackMetrics implements MeterBinder, AutoCloseable {

    private static final String COLLECTION = "collection";
    private static final String NO_COLLECTION = "none";
    private static final Operation[] OPERATIONS = Operation.values();
    private static final String[] OPERATION_NAMES = new String[OPERATIONS.length];

    static {
        for (Operation o : OPERATIONS) {
            OPERATION_NAMES[o.ordinal()] = o.name().toLowerCase(Locale.ROOT);
        }
    }

    /** The database bound, or {@code null} when a persistence is. */
    private final DuckDBDatabase database;
    /** The persistence bound, or {@code null} when a database is. */
    private final DuckDBPersistence<?, ?> persistence;
    /** The name of the persistence's collection, or {@code null} when a database is bound. */
    private final String ownName;
    private final Tags tags;
    private final Listener listener = new Listener();
    /** The meters of each collection seen, by its name. */
    private final Map<String, CollectionMeters> collections = new ConcurrentHashMap<>();
    /** The timers of statements of no collection. */
    private final AtomicReferenceArray<Timer> uncollected = new AtomicReferenceArray<>(2 * OPERATIONS.length);

    private volatile MeterRegistry registry;
    private boolean closed;

    /**
     * Meters for a database and each of its collections, with no extra tags.
     *
     * @param database the database whose operations, pool, caches and size are measured
     */
    public QuackMetrics(DuckDBDatabase database) {
        this(database, Tags.empty());
    }

    /**
     * Meters for a database and each of its collections.
     *
     * @param database the database whose operations, pool, caches and size are measured
     * @param tags     tags added to every meter, for example the service or the database's role
     */
    public QuackMetrics(DuckDBDatabase database, Iterable<Tag> tags) {
        this.database = Objects.requireNonNull(database, "database");
        this.persistence = null;
        this.ownName = null;
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
    }

    /**
     * Meters for one collection and its database, with no extra tags.
     *
     * @param persistence the collection whose operations and cache are measured, with the pool and size of its
     *                    database
     */
    public QuackMetrics(DuckDBPersistence<?, ?> persistence) {
        this(persistence, Tags.empty());
    }

    /**
     * Meters for one collection and its database.
     *
     * @param persistence the collection whose operations and cache are measured, with the pool and size of its
     *                    database
     * @param tags        tags added to every meter, for example the service or the database's role
     */
    public QuackMetrics(DuckDBPersistence<?, ?> persistence, Iterable<Tag> tags) {
        this.database = null;
        this.persistence = Objects.requireNonNull(persistence, "persistence");
        this.ownName = persistence.getTableName();
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
    }

    /**
     * Registers the meters with {@code registry} and starts recording the database's operations into them. A
     * {@code QuackMetrics} is bound once; to publish to several registries, bind it to a
     * {@code CompositeMeterRegistry}.
     *
     * @throws IllegalStateException when it is already bound, or closed
     * @throws io.quackjvm.api.PersistenceClosedException when the database or collection is closed
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("This QuackMetrics is closed; create a new one to bind again");
            }
            if (this.registry != null) {
                throw new IllegalStateException("This QuackMetrics is already bound to a registry; bind it to a "
                        + "CompositeMeterRegistry to publish to several");
            }
            List<String> known;
            if (database != null) {
                known = List.copyOf(database.cacheStats().keySet());
            } else {
                if (persistence.isClosed()) {
                    throw new PersistenceClosedException("Collection '" + ownName + "' is closed: bind a "
                            + "QuackMetrics to an open collection");
                }
                known = List.of(ownName);
            }
            this.registry = registry;
            registerDatabaseMeters(registry);
            for (String name : known) {
                meters(name);
            }
            if (database != null) {
                database.addListener(listener);
            } else {
                persistence.addListener(listener);
            }
        }
    }

    /**
     * Stops recording: the database's operations no longer move the timers and counters. The meters stay
     * registered, with what they recorded, and the gauges go on reading the database. Idempotent; the database
     * stays open.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (database != null) {
            database.removeListener(listener);
        } else {
            persistence.removeListener(listener);
        }
    }

    // ---------------------------------------------------------------- registration

    private void registerDatabaseMeters(MeterRegistry registry) {
        if (database != null) {
            gauge(registry, "quackjvm.pool.connections.active", "Connections of the pool lent now", database,
                    db -> open(db) ? db.poolStats().inUse() : Double.NaN);
            gauge(registry, "quackjvm.pool.connections.idle", "Connections kept idle in the pool", database,
                    db -> open(db) ? db.poolStats().idle() : Double.NaN);
            Gauge.builder("quackjvm.bytes.used", database, db -> bytes(db::getBytesUsed))
                    .description("Size of the database file with its write-ahead log (in memory: DuckDB's memory)")
                    .baseUnit(BaseUnits.BYTES).tags(tags).register(registry);
        } else {
            gauge(registry, "quackjvm.pool.connections.active", "Connections of the pool lent now", persistence,
                    p -> open(p) ? p.poolStats().inUse() : Double.NaN);
            gauge(registry, "quackjvm.pool.connections.idle", "Connections kept idle in the pool", persistence,
                    p -> open(p) ? p.poolStats().idle() : Double.NaN);
            Gauge.builder("quackjvm.bytes.used", persistence, p -> bytes(p::getBytesUsed))
                    .description("Size of the database file with its write-ahead log (in memory: DuckDB's memory)")
                    .baseUnit(BaseUnits.BYTES).tags(tags).register(registry);
        }
    }

    private <T> void gauge(MeterRegistry registry, String name, String description, T state,
                           ToDoubleFunction<T> value) {
        Gauge.builder(name, state, value).description(description).tags(tags).register(registry);
    }

    /** The meters of collection {@code name}, registered the first time it is seen. */
    private CollectionMeters meters(String name) {
        CollectionMeters m = collections.get(name);
        return m != null ? m : collections.computeIfAbsent(name, this::register);
    }

    private CollectionMeters register(String name) {
        MeterRegistry r = registry;
        Tags collection = tags.and(COLLECTION, name);
        if (database != null) {
            cacheMeters(r, collection, database, db -> cacheOf(db, name));
        } else {
            cacheMeters(r, collection, persistence, p -> open(p) ? p.cacheStats() : null);
        }
        Timer lockWait = Timer.builder("quackjvm.write.lock.wait")
                .description("Waits of writers for a collection's write lock").tags(collection).register(r);
        Counter conflicts = Counter.builder("quackjvm.write.conflicts")
                .description("Writes that failed with a write conflict").tags(collection).register(r);
        return new CollectionMeters(lockWait, conflicts);
    }

    private static <T> void cacheMeters(MeterRegistry r, Tags tags, T state,
                                        Function<T, ObjectCacheStats> stats) {
        cacheCounter(r, "quackjvm.cache.hits", "Lookups by primary key answered by the object cache", tags, state,
                stats, ObjectCacheStats::hits);
        cacheCounter(r, "quackjvm.cache.misses", "Lookups by primary key that went to DuckDB", tags, state, stats,
                ObjectCacheStats::misses);
        cacheCounter(r, "quackjvm.cache.evictions", "Objects dropped to keep the object cache within its bound",
                tags, state, stats, ObjectCacheStats::evictions);
        Gauge.builder("quackjvm.cache.size", state, s -> value(stats.apply(s), ObjectCacheStats::size))
                .description("Objects in the object cache now").tags(tags).register(r);
    }

    private static <T> void cacheCounter(MeterRegistry r, String name, String description, Tags tags, T state,
                                         Function<T, ObjectCacheStats> stats,
                                         ToLongFunction<ObjectCacheStats> field) {
        FunctionCounter.builder(name, state, s -> value(stats.apply(s), field))
                .description(description).tags(tags).register(r);
    }

    // ---------------------------------------------------------------- reading the database, for the gauges

    private static boolean open(DuckDBDatabase db) {
        return !db.isClosed();
    }

    private static boolean open(DuckDBPersistence<?, ?> p) {
        return !p.isClosed();
    }

    private static double bytes(LongSupplier bytesUsed) {
        try {
            return bytesUsed.getAsLong();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /** The cache statistics of collection {@code name} of {@code db}; {@code null} when it or {@code db} is closed. */
    private static ObjectCacheStats cacheOf(DuckDBDatabase db, String name) {
        if (db.isClosed()) {
            return null;
        }
        try {
            return db.cacheStats().get(name);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static double value(ObjectCacheStats stats, ToLongFunction<ObjectCacheStats> field) {
        return stats == null ? Double.NaN : field.applyAsLong(stats);
    }

    // ---------------------------------------------------------------- recording

    /** The operation timer of {@code slot} ({@code 2 * ordinal + failed}) in {@code timers}, registered once. */
    private Timer timer(AtomicReferenceArray<Timer> timers, int slot, String collection) {
        Timer t = timers.get(slot);
        if (t == null) {
            t = Timer.builder("quackjvm.operations")
                    .description("Statements and writes of quackjvm, from their start to their end")
                    .tags(tags)
                    .tag(COLLECTION, collection)
                    .tag("operation", OPERATION_NAMES[slot / 2])
                    .tag("outcome", (slot & 1) == 1 ? "failure" : "success")
                    .register(registry);
            timers.set(slot, t);
        }
        return t;
    }

    /** The meters of one collection: its operation timers, created as they are first needed. */
    private static final class CollectionMeters {
        final AtomicReferenceArray<Timer> operations = new AtomicReferenceArray<>(2 * OPERATIONS.length);
        final Timer lockWait;
        final Counter conflicts;

        CollectionMeters(Timer lockWait, Counter conflicts) {
            this.lockWait = lockWait;
            this.conflicts = conflicts;
        }
    }

    /** What the database tells; a failure to record is dropped, never thrown into the database's call. */
    private final class Listener implements OperationListener {

        /** Whether events of {@code collection} are recorded: all of a database, one persistence's own. */
        private boolean ours(String collection) {
            return database != null || (collection != null && collection.equals(ownName));
        }

        @Override
        public void operationEnded(String collection, Operation operation, long nanos, long rows, boolean failed) {
            if (!ours(collection)) {
                return;
            }
            try {
                int slot = 2 * operation.ordinal() + (failed ? 1 : 0);
                Timer t = collection == null ? timer(uncollected, slot, NO_COLLECTION)
                        : timer(meters(collection).operations, slot, collection);
                t.record(nanos, TimeUnit.NANOSECONDS);
            } catch (RuntimeException e) {
                // a registry that refuses a meter: nothing is recorded, the database's call goes on
            }
        }

        @Override
        public void writeLockWaited(String collection, long nanos) {
            if (!ours(collection)) {
                return;
            }
            try {
                meters(collection).lockWait.record(nanos, TimeUnit.NANOSECONDS);
            } catch (RuntimeException e) {
                // as above
            }
        }

        @Override
        public void writeConflicted(String collection) {
            if (!ours(collection)) {
                return;
            }
            try {
                meters(collection).conflicts.increment();
            } catch (RuntimeException e) {
                // as above
            }
        }
    }
}
