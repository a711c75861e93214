package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.spi.WritePolicy;
import io.quackjvm.api.spi.WritePolicyProvider;
import io.quackjvm.bench.probes.ConcurrencyProbe.Item;
import io.quackjvm.bench.probes.ConcurrencyProbe.Outcome;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What sharing one {@link DuckDBDatabase} costs writers: 8 threads update random items, 4 in each of two
 * collections, for a fixed time; measured with the two collections in one shared database (the default
 * per-collection write lock), in a database each, and in one shared database with a single database-wide lock
 * (a write policy that hands every collection the same lock, for comparison). The three are run in turn, round
 * after round, and the median writes/s of each is reported with its ratio to "a database each".
 * Arguments: items per collection (default 50,000), seconds per run (default 3), rounds (default 3).
 */
public final class SharedDatabaseProbe {

    private SharedDatabaseProbe() {
    }

    /** Every collection gets one and the same lock: writers of the whole database take turns. */
    static final class OneLockPolicy implements WritePolicyProvider {
        @Override
        public String name() {
            return "one-lock";
        }

        @Override
        public WritePolicy create(boolean serializeWrites) {
            Lock lock = new ReentrantLock();
            return collection -> lock;
        }
    }

    private static List<Item> items(int n) {
        List<Item> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            all.add(new Item(i, "item " + i, i * 1.5));
        }
        return all;
    }

    private static double measure(List<IndexedCollection<Item>> two, int items, double seconds) throws Exception {
        Outcome o = ConcurrencyProbe.run(8, seconds, (t, r) -> {
            IndexedCollection<Item> c = two.get(t % 2);
            int id = (r.nextInt(items / 4) * 4) + t / 2; // each thread updates keys of its own
            c.update(List.of(), List.of(new Item(id, "updated", r.nextDouble())));
        });
        return o.opsPerSecond();
    }

    private static double shared(Path dir, String tag, int items, double seconds, boolean oneLock) throws Exception {
        DuckDBDatabase.Builder b = DuckDBDatabase.builder().file(dir.resolve(tag + ".duckdb"));
        if (oneLock) {
            b.writePolicy(new OneLockPolicy());
        }
        try (DuckDBDatabase db = b.build()) {
            IndexedCollection<Item> a = db.collection(ConcurrencyProbe.ID).name("a").build();
            IndexedCollection<Item> c = db.collection(ConcurrencyProbe.ID).name("b").build();
            a.addAll(items(items));
            c.addAll(items(items));
            return measure(List.of(a, c), items, seconds);
        }
    }

    private static double separate(Path dir, String tag, int items, double seconds) throws Exception {
        try (DuckDBPersistence<Item, Integer> pa = DuckDBPersistence.builder(ConcurrencyProbe.ID)
                .file(dir.resolve(tag + "-a.duckdb")).build();
             DuckDBPersistence<Item, Integer> pb = DuckDBPersistence.builder(ConcurrencyProbe.ID)
                     .file(dir.resolve(tag + "-b.duckdb")).build()) {
            IndexedCollection<Item> a = new ConcurrentIndexedCollection<>(pa);
            IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(pb);
            a.addAll(items(items));
            c.addAll(items(items));
            return measure(List.of(a, c), items, seconds);
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    public static void main(String[] args) throws Exception {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path dir = Files.createTempDirectory("shared-db-probe");
        double[] sharedOps = new double[rounds];
        double[] separateOps = new double[rounds];
        double[] oneLockOps = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            separateOps[r] = separate(dir, "sep" + r, items, seconds);
            sharedOps[r] = shared(dir, "shared" + r, items, seconds, false);
            oneLockOps[r] = shared(dir, "onelock" + r, items, seconds, true);
        }
        double base = median(separateOps);
        System.out.printf("# Shared database: 8 writer threads, 4 per collection, two collections of %,d items, "
                + "file-backed, %.0f s per run, %d rounds, %d cores%n%n", items, seconds, rounds,
                Runtime.getRuntime().availableProcessors());
        System.out.println("| configuration | median writes/s | ratio to a database each | runs |\n|---|--:|--:|---|");
        row("a database each", separateOps, base);
        row("one shared DuckDBDatabase (lock per collection)", sharedOps, base);
        row("one shared database, one database-wide lock", oneLockOps, base);
    }

    private static void row(String name, double[] ops, double base) {
        StringBuilder runs = new StringBuilder();
        for (double o : ops) {
            runs.append(runs.length() == 0 ? "" : ", ").append(String.format("%,.0f", o));
        }
        System.out.printf("| %s | %,.0f | %.2fx | %s |%n", name, median(ops), median(ops) / base, runs);
    }
}
