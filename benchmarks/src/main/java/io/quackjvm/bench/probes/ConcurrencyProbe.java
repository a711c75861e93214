package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.WriteConflictException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * The spec's concurrency tables, measured through the library: write throughput with serializeWrites on and off
 * at 1 and 16 writer threads (and how many writes conflict when writers share keys), reader throughput by pool
 * size with 16 readers, and point-lookup throughput and p99 by DuckDB's threads setting with 8 readers. Each
 * scenario runs for a fixed time on a file-backed collection of N items; prints a markdown table per scenario.
 * Argument: N (default 100,000) and seconds per scenario (default 4).
 */
public final class ConcurrencyProbe {

    /** A small record stored with the blob layout. */
    public record Item(int id, String name, double price) {
    }

    static final SimpleAttribute<Item, Integer> ID = new SimpleAttribute<>(Item.class, Integer.class, "id") {
        @Override
        public Integer getValue(Item item, QueryOptions queryOptions) {
            return item.id;
        }
    };

    private ConcurrencyProbe() {
    }

    record Outcome(double opsPerSecond, double p99Micros, long conflicts, long operations) {
    }

    interface Op {
        void run(int thread, Random random) throws Exception;
    }

    static Outcome run(int threads, double seconds, Op op) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        AtomicLong conflicts = new AtomicLong();
        List<Future<long[]>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                Random random = new Random(thread);
                long[] lat = new long[1 << 20];
                int n = 0;
                while (System.nanoTime() < end && n < lat.length) {
                    long s = System.nanoTime();
                    try {
                        op.run(thread, random);
                    } catch (WriteConflictException e) {
                        conflicts.incrementAndGet();
                    }
                    lat[n++] = System.nanoTime() - s;
                }
                return Arrays.copyOf(lat, n);
            }));
        }
        List<Long> all = new ArrayList<>();
        for (Future<long[]> f : futures) {
            for (long l : f.get()) {
                all.add(l);
            }
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
        double p99 = sorted.length == 0 ? 0 : sorted[(int) (sorted.length * 0.99)] / 1000.0;
        return new Outcome(sorted.length / seconds, p99, conflicts.get(), sorted.length);
    }

    static DuckDBPersistence<Item, Integer> open(Path dir, String name, int items,
                                                 java.util.function.UnaryOperator<DuckDBPersistence.Builder<Item, Integer>> settings)
            throws Exception {
        DuckDBPersistence<Item, Integer> p = settings.apply(DuckDBPersistence.builder(ID).file(dir.resolve(name + ".duckdb"))).build();
        List<Item> all = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            all.add(new Item(i, "item " + i, i * 1.5));
        }
        new ConcurrentIndexedCollection<>(p).addAll(all);
        return p;
    }

    public static void main(String[] args) throws Exception {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 4;
        Path dir = Files.createTempDirectory("concurrency-probe");
        System.out.printf("# Concurrency probe: %,d items, %.0f s per scenario, %d cores%n%n", items, seconds,
                Runtime.getRuntime().availableProcessors());

        System.out.println("## serializeWrites: updates of random items (distinct keys per thread)\n");
        System.out.println("| serializeWrites | writer threads | writes/s | p99 | conflicts |\n|---|--:|--:|--:|--:|");
        for (boolean serialize : new boolean[]{true, false}) {
            for (int writers : new int[]{1, 16}) {
                try (DuckDBPersistence<Item, Integer> p = open(dir, "w" + serialize + writers, items, b -> b.serializeWrites(serialize))) {
                    IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
                    Outcome o = run(writers, seconds, (t, r) -> {
                        int id = (r.nextInt(items / writers) * writers) + t; // keys of one thread only
                        c.update(List.of(), List.of(new Item(id, "updated", r.nextDouble())));
                    });
                    System.out.printf("| %s | %d | %,.0f | %,.0f us | %d |%n", serialize, writers, o.opsPerSecond, o.p99Micros, o.conflicts);
                }
            }
        }
        System.out.println("\n## serializeWrites(false) with 8 writers sharing 50 keys\n");
        try (DuckDBPersistence<Item, Integer> p = open(dir, "shared", items, b -> b.serializeWrites(false))) {
            IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
            Outcome o = run(8, seconds, (t, r) -> c.update(List.of(), List.of(new Item(r.nextInt(50), "x" + t, r.nextDouble()))));
            System.out.printf("%,d writes, %d failed with WriteConflictException (%.0f%%), each rolled back whole%n",
                    o.operations, o.conflicts, 100.0 * o.conflicts / Math.max(1, o.operations));
        }

        System.out.println("\n## maxPooledConnections: 16 reader threads doing point lookups\n");
        System.out.println("| maxPooledConnections | lookups/s | p99 |\n|--:|--:|--:|");
        for (int poolSize : new int[]{0, 1, 4, 32}) {
            try (DuckDBPersistence<Item, Integer> p = open(dir, "pool" + poolSize, items, b -> b.maxPooledConnections(poolSize))) {
                IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
                Outcome o = run(16, seconds, (t, r) -> {
                    try (ResultSet<Item> rs = c.retrieve(equal(ID, r.nextInt(items)))) {
                        rs.uniqueResult();
                    }
                });
                System.out.printf("| %d | %,.0f | %,.0f us |%n", poolSize, o.opsPerSecond, o.p99Micros);
            }
        }

        System.out.println("\n## DuckDB threads: 8 reader threads doing point lookups\n");
        System.out.println("| threads | lookups/s | p99 |\n|---|--:|--:|");
        for (String threads : new String[]{"default", "2", "1"}) {
            try (DuckDBPersistence<Item, Integer> p = open(dir, "threads" + threads, items,
                    b -> threads.equals("default") ? b : b.property("threads", threads))) {
                IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
                Outcome o = run(8, seconds, (t, r) -> {
                    try (ResultSet<Item> rs = c.retrieve(equal(ID, r.nextInt(items)))) {
                        rs.uniqueResult();
                    }
                });
                System.out.printf("| %s | %,.0f | %,.0f us |%n", threads, o.opsPerSecond, o.p99Micros);
            }
        }
    }
}
