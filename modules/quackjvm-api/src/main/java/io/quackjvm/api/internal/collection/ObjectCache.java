package io.quackjvm.api.internal.collection;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.quackjvm.api.ObjectCacheStats;

import java.util.Collection;
import java.util.Set;

/**
 * The bounded cache of one collection's materialised objects by primary key ({@code objectCacheSize}), on
 * Caffeine. Only committed objects read outside a write transaction are put in it, and it hands out the very
 * instance it holds, as an on-heap collection does.
 *
 * <p><b>Never stale.</b> A read that missed takes a {@link #stamp} of the key's stripe <em>before</em> its
 * statement starts (so before DuckDB takes its snapshot), and {@link #put} stores the object only if no write
 * touching that stripe was in progress at the stamp and none has started or ended since. A write marks every key
 * it changes through its {@link Write} ({@link Write#touch}: the stripe is marked, then the key invalidated) while
 * its transaction is open, before it commits, and ends the marks only after COMMIT or ROLLBACK ({@link Write#end}).
 * Marking and putting take the stripe's monitor, so a put either lands before the mark (and the invalidation that
 * follows removes it) or sees the mark and is refused; a put can therefore never store a row that a commit has
 * already replaced. Keys are spread over {@value #STRIPES} stripes so that a write in progress only stops the
 * cache from filling for the keys that share its stripes. A hit takes no lock.
 *
 * <p>Write paths reach it through {@link CollectionStatements#write(com.googlecode.cqengine.query.option.QueryOptions,
 * String, CollectionStatements.CacheWork)}; a writer with a transaction of its own (the bulk writer) calls
 * {@link #beginWrite()}, {@link Write#touch}/{@link Write#touchAll} before its commit, and {@link Write#end()}
 * after COMMIT or ROLLBACK, in a {@code finally}. Thread-safe.
 */
public final class ObjectCache<A, O> {

    /** The stamp of a read that must not fill the cache. */
    static final long UNCACHEABLE = -1L;
    static final int STRIPES = 256;

    private static final ObjectCache<?, ?> DISABLED = new ObjectCache<>(0);

    private final int maxSize;
    private final Cache<A, O> cache;
    private final Stripe[] stripes;

    /** One stripe's write marks: writes in progress and a version bumped whenever one starts or ends. */
    private static final class Stripe {
        int inFlight;
        long version;
    }

    private ObjectCache(int maxSize) {
        this.maxSize = maxSize;
        if (maxSize == 0) {
            this.cache = null;
            this.stripes = null;
            return;
        }
        // Maintenance (eviction) runs on the calling threads, not in the common pool: nothing runs in the
        // background, and the size is back under the bound as soon as the put that exceeded it returns.
        this.cache = Caffeine.newBuilder().maximumSize(maxSize).executor(Runnable::run).recordStats().build();
        this.stripes = new Stripe[STRIPES];
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    /** A cache of at most {@code maxSize} objects, or the disabled one for 0. */
    @SuppressWarnings("unchecked")
    static <A, O> ObjectCache<A, O> of(int maxSize) {
        return maxSize == 0 ? (ObjectCache<A, O>) DISABLED : new ObjectCache<>(maxSize);
    }

    public boolean enabled() {
        return cache != null;
    }

    private Stripe stripe(Object key) {
        int h = key.hashCode();
        return stripes[(h ^ (h >>> 16)) & (STRIPES - 1)];
    }

    /** The cached object with this key, or {@code null} (counted as a hit or a miss). */
    public O get(A key) {
        return cache.getIfPresent(key);
    }

    /** Taken before the statement of a read that may fill the cache; see the class comment. */
    public long stamp(A key) {
        Stripe s = stripe(key);
        synchronized (s) {
            return s.inFlight > 0 ? UNCACHEABLE : s.version;
        }
    }

    /** Stores {@code object}, read by a statement started after {@code stamp}, unless a write intervened. */
    public void put(A key, O object, long stamp) {
        if (stamp == UNCACHEABLE) {
            return;
        }
        Stripe s = stripe(key);
        synchronized (s) {
            if (s.inFlight == 0 && s.version == stamp) {
                cache.put(key, object);
            }
        }
    }

    /** Starts the cache side of one write transaction; {@link Write#end()} must follow its commit or rollback. */
    Write<A> beginWrite() {
        return new Write<>(this);
    }

    /** Drops everything (the database is closing). */
    public void clear() {
        if (cache != null) {
            cache.invalidateAll();
            cache.cleanUp();
        }
    }

    public ObjectCacheStats stats() {
        if (cache == null) {
            return new ObjectCacheStats(0, 0, 0, 0, 0);
        }
        cache.cleanUp();
        CacheStats s = cache.stats();
        return new ObjectCacheStats(s.hitCount(), s.missCount(), s.evictionCount(), cache.estimatedSize(), maxSize);
    }

    /**
     * The cache side of one write transaction: the stripes it has marked. Used by one thread (the request's).
     */
    static final class Write<A> {
        private final ObjectCache<A, ?> owner;
        private boolean[] marked;
        private boolean ended;

        private Write(ObjectCache<A, ?> owner) {
            this.owner = owner;
        }

        private void mark(int i) {
            if (marked == null) {
                marked = new boolean[STRIPES];
            }
            if (!marked[i]) {
                Stripe s = owner.stripes[i];
                synchronized (s) {
                    s.inFlight++;
                    s.version++;
                }
                marked[i] = true;
            }
        }

        /** Before this transaction commits a change to these keys: no stale copy survives it. */
        void touch(Collection<? extends A> keys) {
            if (owner.cache == null || keys.isEmpty()) {
                return;
            }
            if (keys.size() > 4 * STRIPES && keys instanceof Set<?> set) {
                for (int i = 0; i < STRIPES; i++) {
                    mark(i);
                }
                // Cheaper to look at what is cached than to invalidate a million keys one by one; every put
                // that completed before the marks is seen by this iteration, every later one is refused.
                if (keys.size() > owner.cache.estimatedSize()) {
                    owner.cache.asMap().keySet().removeIf(set::contains);
                    return;
                }
            } else {
                for (A key : keys) {
                    int h = key.hashCode();
                    mark((h ^ (h >>> 16)) & (STRIPES - 1));
                }
            }
            owner.cache.invalidateAll(keys);
        }

        /** Before this transaction commits a change to every object (clear). */
        void touchAll() {
            if (owner.cache == null) {
                return;
            }
            for (int i = 0; i < STRIPES; i++) {
                mark(i);
            }
            owner.cache.invalidateAll();
        }

        /** After this transaction's COMMIT or ROLLBACK (also when it failed); idempotent. */
        void end() {
            if (ended) {
                return;
            }
            ended = true;
            if (marked == null) {
                return;
            }
            for (int i = 0; i < STRIPES; i++) {
                if (marked[i]) {
                    Stripe s = owner.stripes[i];
                    synchronized (s) {
                        s.inFlight--;
                        s.version++;
                    }
                }
            }
        }
    }
}
