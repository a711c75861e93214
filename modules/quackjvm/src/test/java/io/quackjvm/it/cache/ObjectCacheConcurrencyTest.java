package io.quackjvm.it.cache;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Seeds;
import io.quackjvm.api.ObjectCacheStats;
import io.quackjvm.it.Car;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Randomised: writers change keys while readers look them up through the object cache, and every read is
 * checked against a model of what was committed around it.
 *
 * <p>Each key belongs to one writer, which gives every change of it the next version number: a present car
 * whose price is that version, or the key's absence. Before a change the writer records the version it is about
 * to write ({@code started}); after the call returns, the version it wrote ({@code committed}). A reader notes
 * {@code committed} before its lookup and {@code started} after it: whatever it read must be the state of a
 * version between the two. A stale cache entry shows up as a version older than the one committed before the
 * lookup began. Runs for {@code -Dquackjvm.cacheSoakSeconds} (default 2) per case.
 */
class ObjectCacheConcurrencyTest {

    private static final int KEYS = 96;
    private static final int WRITERS = 2;
    private static final int READERS = 3;

    private static Car version(int key, long v) {
        return Car.of(key).withPrice(v);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void everyReadMatchesTheModelUnderConcurrentWriters(boolean serializeWrites) throws Exception {
        long seconds = Long.getLong("quackjvm.cacheSoakSeconds", 2);
        long seed = Seeds.of("quackjvm.cacheSeed", "ObjectCacheConcurrencyTest serializeWrites=" + serializeWrites);
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).objectCacheSize(32)
                .appenderThreshold(4).serializeWrites(serializeWrites).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            AtomicLongArray started = new AtomicLongArray(KEYS);
            AtomicLongArray committed = new AtomicLongArray(KEYS);
            // version -> present? for each key; version 0 is the initial state (present, price 0)
            List<ConcurrentHashMap<Long, Boolean>> states = new ArrayList<>();
            List<Car> initial = new ArrayList<>();
            for (int k = 0; k < KEYS; k++) {
                ConcurrentHashMap<Long, Boolean> m = new ConcurrentHashMap<>();
                m.put(0L, true);
                states.add(m);
                initial.add(version(k, 0));
            }
            cars.addAll(initial);

            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            AtomicLong reads = new AtomicLong();
            AtomicLong writes = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                Random random = new Random(seed + w);
                threads.add(new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            write(cars, writer, random, started, committed, states);
                            writes.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failures.add("writer " + writer + ": " + t);
                    }
                }));
            }
            for (int r = 0; r < READERS; r++) {
                int reader = r;
                Random random = new Random(seed + 100 + r);
                threads.add(new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            read(cars, random, started, committed, states, failures);
                            reads.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failures.add("reader " + reader + ": " + t);
                    }
                }));
            }
            threads.forEach(Thread::start);
            Thread.sleep(seconds * 1000);
            stop.set(true);
            for (Thread t : threads) {
                t.join(60_000);
                assertTrue(!t.isAlive(), "a thread did not stop");
            }
            assertTrue(failures.isEmpty(), () -> failures.size() + " bad reads" + Seeds.note("quackjvm.cacheSeed", seed) + ", first: "
                    + failures.peek());
            // at rest, every key reads as last committed, twice (the second from the cache)
            for (int k = 0; k < KEYS; k++) {
                long v = committed.get(k);
                Car expected = states.get(k).get(v) ? version(k, v) : null;
                assertEquals(expected, lookup(cars, k), "key " + k);
                assertEquals(expected, lookup(cars, k), "key " + k + " again");
            }
            ObjectCacheStats stats = p.cacheStats();
            assertTrue(stats.size() <= 32, stats.toString());
            assertTrue(stats.hits() > 0 && writes.get() > 0 && reads.get() > 0,
                    () -> stats + ", writes " + writes + ", reads " + reads);
        }
    }

    private static Car lookup(IndexedCollection<Car> cars, int key) {
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, key))) {
            Iterator<Car> it = rs.iterator();
            return it.hasNext() ? it.next() : null;
        }
    }

    /** One change: to one key (add, replace, update, remove) or to several of this writer's keys at once. */
    private static void write(IndexedCollection<Car> cars, int writer, Random random, AtomicLongArray started,
                              AtomicLongArray committed, List<ConcurrentHashMap<Long, Boolean>> states) {
        int op = random.nextInt(10);
        int count = op < 2 ? 6 + random.nextInt(6) : 1; // a batch above appenderThreshold takes the Appender path
        List<Integer> keys = new ArrayList<>();
        while (keys.size() < count) {
            int k = writer + WRITERS * random.nextInt(KEYS / WRITERS);
            if (!keys.contains(k)) {
                keys.add(k);
            }
        }
        boolean remove = op >= 7;
        List<Car> old = new ArrayList<>();
        List<Car> fresh = new ArrayList<>();
        for (int k : keys) {
            long before = committed.get(k);
            long next = before + 1;
            boolean present = states.get(k).get(before);
            if (present) {
                old.add(version(k, before));
            }
            states.get(k).put(next, !remove);
            if (!remove) {
                fresh.add(version(k, next));
            }
            started.set(k, next);
        }
        if (remove) {
            cars.removeAll(old);
        } else if (op < 5 || old.isEmpty()) {
            cars.addAll(fresh); // replaces what is stored under these keys
        } else {
            cars.update(old, fresh);
        }
        for (int k : keys) {
            committed.set(k, started.get(k));
        }
    }

    private static void read(IndexedCollection<Car> cars, Random random, AtomicLongArray started,
                             AtomicLongArray committed, List<ConcurrentHashMap<Long, Boolean>> states,
                             ConcurrentLinkedQueue<String> failures) {
        int op = random.nextInt(10);
        if (op < 7) {
            int k = random.nextInt(KEYS);
            long lo = committed.get(k);
            Car got = lookup(cars, k);
            long hi = started.get(k);
            check(k, got, lo, hi, states, failures, "equal");
        } else if (op < 9) {
            int k = random.nextInt(KEYS);
            long lo = committed.get(k);
            Car probe = version(k, lo);
            boolean contains = cars.contains(probe);
            long hi = started.get(k);
            // contains(version lo) may be true only if lo is a present version (it is the only one with that price)
            if (contains && !states.get(k).get(lo)) {
                failures.add("contains(" + k + "@" + lo + ") true for an absent version");
            }
            if (!contains && hi == lo && states.get(k).get(lo)) {
                failures.add("contains(" + k + "@" + lo + ") false although no write to it ran");
            }
        } else {
            int a = random.nextInt(KEYS);
            int b = random.nextInt(KEYS);
            long loA = committed.get(a);
            long loB = committed.get(b);
            List<Car> got = new ArrayList<>();
            try (ResultSet<Car> rs = cars.retrieve(in(Car.CAR_ID, a, b))) {
                rs.forEach(got::add);
            }
            long hiA = started.get(a);
            long hiB = started.get(b);
            check(a, got.stream().filter(c -> c.carId() == a).findFirst().orElse(null), loA, hiA, states, failures,
                    "in");
            check(b, got.stream().filter(c -> c.carId() == b).findFirst().orElse(null), loB, hiB, states, failures,
                    "in");
        }
    }

    private static void check(int k, Car got, long lo, long hi, List<ConcurrentHashMap<Long, Boolean>> states,
                              ConcurrentLinkedQueue<String> failures, String how) {
        if (got != null) {
            long v = (long) got.price();
            if (v < lo || v > hi || !states.get(k).get(v) || !got.equals(version(k, v))) {
                failures.add(how + " key " + k + " read version " + v + " outside [" + lo + ", " + hi + "]");
            }
            return;
        }
        for (long v = lo; v <= hi; v++) {
            Boolean present = states.get(k).get(v);
            if (present != null && !present) {
                return;
            }
        }
        failures.add(how + " key " + k + " read as absent, but no version in [" + lo + ", " + hi + "] is");
    }
}
