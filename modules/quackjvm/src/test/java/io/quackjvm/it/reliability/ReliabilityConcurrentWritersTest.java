package io.quackjvm.it.reliability;

import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.WriteConflictException;
import io.quackjvm.it.Seeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several threads write to one file-backed collection at once and the result is checked against a model.
 *
 * <p>Each thread owns a range of keys that no other thread writes, so its own log is an exact model of that
 * range. All threads also write a small set of shared keys, where the order between threads is unknown: there the
 * check is that a stored object is the last successful write of one of the threads (every version written is
 * unique to its thread), and that a shared key is absent only if a removal of it succeeded or nobody added it.
 * Many requests mix owned and shared keys, so a request that failed on a shared key and left its owned part
 * behind shows up as a difference in the owned range. Index tables are checked against the objects at the end.
 */
class ReliabilityConcurrentWritersTest {

    private static final int THREADS = 4;
    private static final int OWN_KEYS = 300;
    private static final int SHARED_KEYS = 30;
    private static final int SHARED_BASE = 1_000_000;

    @TempDir
    Path dir;

    @Test
    void serialisedWritersAllSucceedAndTheFileEqualsTheModel() throws Exception {
        Outcome o = run(true);
        assertEquals(Map.of(), o.failures, "with serializeWrites(true) every request must succeed" + o.seedNote);
        report("serializeWrites(true)", o);
    }

    @Test
    void unserialisedWritersFailOnlyWithWriteConflictsAndNeverHalfWrite() throws Exception {
        Outcome o = run(false);
        for (Throwable e : o.examples) {
            assertTrue(e instanceof WriteConflictException && e.getCause() != null,
                    "with serializeWrites(false) a failure must be a WriteConflictException with its cause, got " + e
                            + " caused by " + e.getCause() + "; failures by type: " + o.failures + o.seedNote);
        }
        report("serializeWrites(false), WriteConflictException only", o);
    }

    private static void report(String mode, Outcome o) throws Exception {
        long failed = o.failures.values().stream().mapToLong(Long::longValue).sum();
        List<String> lines = new ArrayList<>();
        lines.add(THREADS + " writer threads, " + OWN_KEYS + " owned keys each, " + SHARED_KEYS + " shared keys, file-backed, "
                + "three DuckDB indexes; the final file checked against the model, through the collection and in SQL.");
        lines.add("");
        lines.add("| measure | value |");
        lines.add("|---|--:|");
        lines.add("| requests | " + o.requests + " |");
        lines.add("| succeeded | " + (o.requests - failed) + " |");
        lines.add("| failed | " + failed + " |");
        o.failures.forEach((type, n) -> lines.add("| failed with " + type + " | " + n + " |"));
        lines.add("| objects in the file at the end | " + o.finalSize + " |");
        lines.add(String.format("| wall time | %.1f s |", o.seconds));
        Soak.report("Concurrent writers, " + mode + ": ReliabilityConcurrentWritersTest", lines);
    }

    /**
     * What one run did: requests, failures by exception class (and whether it had a cause), and up to 50 failures
     * of each such type, so that every type that occurred has an example.
     */
    private record Outcome(long requests, Map<String, Long> failures, List<Throwable> examples, int finalSize,
                           double seconds, String seedNote) {
    }

    private Outcome run(boolean serialize) throws Exception {
        int opsPerThread = Soak.size(60, 800);
        long seed = Seeds.of("reliability.seed", "ReliabilityConcurrentWritersTest serializeWrites=" + serialize);
        String seedNote = Seeds.note("reliability.seed", seed);
        Path db = dir.resolve("writers-" + serialize + ".duckdb");
        long started = System.nanoTime();
        Map<String, Long> failures = new ConcurrentHashMap<>();
        List<Throwable> examples = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong requests = new AtomicLong();
        List<Writer> writers = new ArrayList<>();
        Map<Integer, Part> stored;
        long ran;
        try (PartStore store = new PartStore(db, b -> b.serializeWrites(serialize))) {
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    Writer w = new Writer(t, new Random(seed + t), store);
                    writers.add(w);
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < opsPerThread; i++) {
                            requests.incrementAndGet();
                            try {
                                w.step();
                            } catch (RuntimeException e) {
                                String type = e.getClass().getSimpleName() + (e.getCause() == null ? " without a cause" : "");
                                if (failures.merge(type, 1L, Long::sum) <= 50) {
                                    examples.add(e);
                                }
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get(10, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
                assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
            }

            ran = System.nanoTime();
            stored = store.contents();
            for (Writer w : writers) {
                Map<Integer, Part> own = new HashMap<>();
                stored.forEach((id, p) -> { if (w.owns(id)) own.put(id, p); });
                assertEquals(Consistency.objects(w.own), own, "thread " + w.thread + "'s own keys" + seedNote);
            }
            for (int k = SHARED_BASE; k < SHARED_BASE + SHARED_KEYS; k++) {
                Part p = stored.get(k);
                Set<Integer> candidates = new HashSet<>();
                boolean removed = false;
                boolean added = false;
                for (Writer w : writers) {
                    if (w.lastSharedAdd.containsKey(k)) {
                        candidates.add(w.lastSharedAdd.get(k));
                        added = true;
                    }
                    removed |= w.sharedRemoved.contains(k);
                }
                if (p == null) {
                    assertTrue(removed || !added, "shared key " + k + " is absent though added and never removed" + seedNote);
                } else {
                    assertTrue(candidates.contains(p.version()), "shared key " + k + " holds " + p
                            + ", which is no thread's last successful write of it " + candidates + seedNote);
                    assertEquals(Part.of(k, p.version()), p, "shared key " + k + seedNote);
                }
            }
            Consistency.indexesAgreeWithObjects(store, stored.values(), "serializeWrites(" + serialize + ")" + seedNote);
            String table = store.persistence.getTableName();
            var indexes = store.indexes();
            store.close();
            Consistency.tablesAgreeInSql(db, table, indexes, stored.values(), "serializeWrites(" + serialize + ")" + seedNote);
        }
        System.out.printf("serializeWrites(%s): %d requests in %.1f s, checks %.1f s, failures %s%n", serialize,
                requests.get(), (ran - started) / 1e9, (System.nanoTime() - ran) / 1e9, failures);
        return new Outcome(requests.get(), new TreeMap<>(failures), examples, stored.size(),
                (System.nanoTime() - started) / 1e9, seedNote);
    }

    /** One writer thread and its model: its owned keys exactly, and its successful writes of shared keys. */
    private static final class Writer {
        final int thread;
        final Random random;
        final PartStore store;
        final Map<Integer, Integer> own = new HashMap<>();
        final Map<Integer, Integer> lastSharedAdd = new HashMap<>();
        final Set<Integer> sharedRemoved = new HashSet<>();
        private int counter;

        Writer(int thread, Random random, PartStore store) {
            this.thread = thread;
            this.random = random;
            this.store = store;
        }

        boolean owns(int id) {
            return id >= thread * OWN_KEYS && id < (thread + 1) * OWN_KEYS;
        }

        /** A version no other thread uses, so a stored object names its writer. */
        private int nextVersion() {
            return thread * 10_000_000 + ++counter;
        }

        private int ownKey() {
            return thread * OWN_KEYS + random.nextInt(OWN_KEYS);
        }

        private int sharedKey() {
            return SHARED_BASE + random.nextInt(SHARED_KEYS);
        }

        /** One request; the model changes only if it returns normally. */
        void step() {
            int dice = random.nextInt(100);
            List<Part> removes = new ArrayList<>();
            List<Part> adds = new ArrayList<>();
            if (dice < 25) {
                adds.add(Part.of(ownKey(), nextVersion()));
                store.parts.add(adds.get(0));
            } else if (dice < 37) {
                addOwn(adds, 2 + random.nextInt(10));
                store.parts.addAll(adds);
            } else if (dice < 42) {
                addOwn(adds, 40 + random.nextInt(150)); // through the Appender
                store.parts.addAll(adds);
            } else if (dice < 55) {
                Set<Integer> keys = storedOwn(1 + random.nextInt(5));
                keys.forEach(k -> removes.add(Part.of(k, own.get(k))));
                if (removes.size() == 1) {
                    store.parts.remove(removes.get(0));
                } else {
                    store.parts.removeAll(removes);
                }
            } else if (dice < 70) {
                for (int k : storedOwn(1 + random.nextInt(5))) {
                    removes.add(Part.of(k, own.get(k)));
                    adds.add(Part.of(k, nextVersion()));
                }
                store.parts.update(removes, adds);
            } else if (dice < 90) {
                // owned and shared keys in one request: small (prepared statements) or large (Appender)
                addOwn(adds, random.nextInt(4) == 0 ? 30 + random.nextInt(60) : 1 + random.nextInt(4));
                Set<Integer> shared = new LinkedHashSet<>();
                for (int i = 1 + random.nextInt(2); i > 0; i--) {
                    shared.add(sharedKey());
                }
                shared.forEach(k -> adds.add(Part.of(k, nextVersion())));
                store.parts.addAll(adds);
            } else {
                int k = sharedKey();
                Part current;
                // One read: size() and then uniqueResult() would be two statements, and another thread may remove
                // the shared key between them (as on the heap, where they are two passes over the index).
                try (ResultSet<Part> rs = store.parts.retrieve(equal(Part.ID, k))) {
                    java.util.Iterator<Part> it = rs.iterator();
                    current = it.hasNext() ? it.next() : null;
                }
                if (current == null) {
                    return;
                }
                store.parts.remove(current);
                sharedRemoved.add(k);
                return;
            }
            for (Part p : removes) {
                own.remove(p.id(), p.version());
            }
            for (Part p : adds) {
                if (owns(p.id())) {
                    own.put(p.id(), p.version());
                } else {
                    lastSharedAdd.put(p.id(), p.version());
                }
            }
        }

        private void addOwn(List<Part> adds, int n) {
            Set<Integer> keys = new LinkedHashSet<>();
            for (int i = 0; i < n; i++) {
                keys.add(ownKey());
            }
            keys.forEach(k -> adds.add(Part.of(k, nextVersion())));
        }

        private Set<Integer> storedOwn(int n) {
            List<Integer> stored = new ArrayList<>(own.keySet());
            Set<Integer> keys = new LinkedHashSet<>();
            for (int i = 0; i < n && !stored.isEmpty(); i++) {
                keys.add(stored.get(random.nextInt(stored.size())));
            }
            return keys;
        }
    }
}
