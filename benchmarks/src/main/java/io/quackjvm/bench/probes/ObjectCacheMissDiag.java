package io.quackjvm.bench.probes;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.harness.Configs;
import io.quackjvm.bench.harness.Subject;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Where does the object cache's miss spend the time an uncached lookup does not? Loads N cars into a cached and
 * an uncached file (as {@link ObjectCacheProbe}) plus the heap and DiskPersistence, then runs the same five probes
 * in several arrangements, one factor changed at a time:
 * <ul>
 *   <li>{@code rotate/own-keys}: {@link ObjectCacheProbe}'s session-6 arrangement: the starting probe rotates
 *       (so the uncached lookup nearly always runs right after the miss, a DuckDB statement, and the miss right
 *       after the hot lookup or SQLite); the miss takes never-used keys, the uncached lookup random ones;</li>
 *   <li>{@code rotate/same-keys}: the same order, the uncached lookup using the miss's key of that round;</li>
 *   <li>{@code shuffle/same-keys}: a fresh random order every round, same keys;</li>
 *   <li>{@code pairs ABBA/same-keys}: only the miss and the uncached lookup, alternating AB, BA;</li>
 *   <li>{@code miss-after-duckdb}: every probe preceded by an uncached DuckDB lookup of an already-read key.</li>
 * </ul>
 * and times the cache's own work (Caffeine get + put of a new key in a cache like ours) alone. Arguments: N,
 * samples per arrangement. Prints a table of medians; a diagnostic, not a target measurement.
 */
public final class ObjectCacheMissDiag {

    private ObjectCacheMissDiag() {
    }

    private interface Probe {
        void run(int key);
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 1_000_000;
        int samples = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        Path dir = Files.createTempDirectory("quackjvm-cachediag-");
        List<Car> all = CarGenerator.cars(0, n);
        SplittableRandom random = new SplittableRandom(11);
        int[] perm = ObjectCacheProbe.permutation(n, random);
        Subject heap = Configs.get(Configs.ON_HEAP).factory.create(Files.createDirectories(dir.resolve("heap")));
        heap.load(all);
        Subject disk = Configs.get(Configs.DISK).factory.create(Files.createDirectories(dir.resolve("disk")));
        disk.load(all);
        DuckDBPersistence<Car, Integer> cachedP = DuckDBPersistence.builder(Car.CAR_ID)
                .file(dir.resolve("cached.duckdb")).objectCacheSize(100_000).build();
        IndexedCollection<Car> cached = indexed(cachedP);
        cached.addAll(all);
        cachedP.optimize();
        DuckDBPersistence<Car, Integer> plainP = DuckDBPersistence.builder(Car.CAR_ID)
                .file(dir.resolve("plain.duckdb")).build();
        IndexedCollection<Car> plain = indexed(plainP);
        plain.addAll(all);
        plainP.optimize();
        all = null;
        System.gc();
        int[] hot = Arrays.copyOf(perm, 1000);
        for (int k : hot) {
            ObjectCacheProbe.lookup(cached, k);
            ObjectCacheProbe.lookup(plain, k);
        }
        int[] next = {1000};
        Map<String, Probe> probes = new LinkedHashMap<>();
        int[] hotAt = {0};
        probes.put("hot", k -> ObjectCacheProbe.lookup(cached, hot[hotAt[0]++ % 1000]));
        probes.put("miss", k -> ObjectCacheProbe.lookup(cached, k));
        probes.put("uncached", k -> ObjectCacheProbe.lookup(plain, k));
        probes.put("heap", heap::lookup);
        probes.put("disk", disk::lookup);
        List<String> names = new ArrayList<>(probes.keySet());
        System.out.println("arrangement | miss med | uncached med | ratio of medians | median per-round ratio "
                + "| hot med | heap med");
        for (int rep = 0; rep < 2; rep++) {
            for (String arrangement : List.of("rotate/own-keys", "rotate/same-keys", "shuffle/same-keys",
                    "pairs ABBA/same-keys", "miss-after-duckdb")) {
                Map<String, long[]> t = new LinkedHashMap<>();
                names.forEach(x -> t.put(x, new long[samples]));
                SplittableRandom order = new SplittableRandom(rep * 31 + arrangement.length());
                for (int i = -200; i < samples; i++) {
                    int key = perm[next[0]++];
                    int other = arrangement.equals("rotate/own-keys") ? random.nextInt(n) : key;
                    List<String> seq = new ArrayList<>();
                    switch (arrangement) {
                        case "rotate/own-keys", "rotate/same-keys" -> {
                            int s = Math.floorMod(i, names.size());
                            for (int j = 0; j < names.size(); j++) {
                                seq.add(names.get((s + j) % names.size()));
                            }
                        }
                        case "shuffle/same-keys" -> {
                            seq.addAll(names);
                            for (int j = seq.size() - 1; j > 0; j--) {
                                int r = order.nextInt(j + 1);
                                String x = seq.get(j);
                                seq.set(j, seq.get(r));
                                seq.set(r, x);
                            }
                        }
                        case "pairs ABBA/same-keys" -> {
                            if ((i & 1) == 0) {
                                seq.add("miss");
                                seq.add("uncached");
                            } else {
                                seq.add("uncached");
                                seq.add("miss");
                            }
                        }
                        default -> {
                            // each probe right after a DuckDB lookup of an unrelated, already-read key
                            for (String x : names) {
                                seq.add("warm:" + x);
                                seq.add(x);
                            }
                        }
                    }
                    for (String x : seq) {
                        if (x.startsWith("warm:")) {
                            ObjectCacheProbe.lookup(plain, hot[i & 511]);
                            continue;
                        }
                        int k = x.equals("uncached") || x.equals("heap") || x.equals("disk") ? other : key;
                        long s = System.nanoTime();
                        probes.get(x).run(k);
                        long d = System.nanoTime() - s;
                        if (i >= 0) {
                            t.get(x)[i] = d;
                        }
                    }
                }
                long[] miss = t.get("miss");
                long[] unc = t.get("uncached");
                double[] ratios = new double[samples];
                for (int i = 0; i < samples; i++) {
                    ratios[i] = (double) miss[i] / unc[i];
                }
                Arrays.sort(ratios);
                double mm = median(miss);
                double um = median(unc);
                System.out.printf(Locale.ROOT, "%s | %.1f | %.1f | %.3f | %.3f | %.2f | %.2f%n", arrangement, mm,
                        um, mm / um, ratios[samples / 2], median(t.get("hot")), median(t.get("heap")));
            }
        }
        // The cache's own work on a miss, alone: a Caffeine cache built as ObjectCache builds it.
        Cache<Integer, Car> c = Caffeine.newBuilder().maximumSize(100_000).executor(Runnable::run).recordStats()
                .build();
        Car car = CarGenerator.cars(0, 1).get(0);
        long[] cw = new long[samples];
        for (int i = -10_000; i < samples; i++) {
            int k = perm[(i + 20_000) % n];
            long s = System.nanoTime();
            if (c.getIfPresent(k) == null) {
                synchronized (c) {
                    c.put(k, car);
                }
            }
            if (i >= 0) {
                cw[i] = System.nanoTime() - s;
            }
        }
        System.out.printf(Locale.ROOT, "caffeine get-miss + put alone: median %.2f us%n", median(cw));
        cachedP.close();
        plainP.close();
        disk.close();
        heap.close();
        Worker.deleteRecursively(dir);
    }

    private static IndexedCollection<Car> indexed(DuckDBPersistence<Car, Integer> p) {
        IndexedCollection<Car> cars = new com.googlecode.cqengine.ConcurrentIndexedCollection<>(p);
        cars.addIndex(io.quackjvm.api.DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(io.quackjvm.api.DuckDBIndex.onAttribute(Car.MODEL));
        cars.addIndex(io.quackjvm.api.DuckDBIndex.onAttribute(Car.PRICE));
        return cars;
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2] / 1e3;
    }
}
