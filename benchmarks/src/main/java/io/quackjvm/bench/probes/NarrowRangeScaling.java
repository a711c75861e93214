package io.quackjvm.bench.probes;

import io.quackjvm.bench.harness.Configs;
import io.quackjvm.bench.harness.Subject;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Narrow ranges (~50 matches on price) through the real collections, side by side in one JVM: for each size, every
 * configuration is built once (loaded in chunks, then {@code optimize()} where it exists), and the ranges run
 * interleaved, sample by sample in rotation, the same bounds for every configuration. Medians in µs, the ratio to
 * CQEngine DiskPersistence with a DiskIndex, and the growth from the smallest to the largest size.
 *
 * <p>Arguments: sizes (default 500000,1000000,2000000,4000000), samples per size (default 400), configurations
 * (default cq-disk,quack-file-covering,quack-columnar-file-covering). JVM flags:
 * {@code --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED}.
 */
public final class NarrowRangeScaling {

    private static final int CHUNK = 250_000;

    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "500000,1000000,2000000,4000000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int samples = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        List<String> configs = List.of((args.length > 2 ? args[2]
                : "cq-disk,quack-file-covering,quack-columnar-file-covering").split(","));
        // optional: variants of the quack configurations, each a JVM system property set while it runs (exploration)
        List<String> variants = args.length > 3 ? List.of(args[3].split(",")) : List.of();
        List<String> all = new ArrayList<>(configs);
        for (String c : configs) {
            if (c.startsWith("quack")) {
                for (String v : variants) all.add(c + "/" + v);
            }
        }
        Map<String, double[]> medians = new LinkedHashMap<>();
        for (String c : all) {
            medians.put(c, new double[sizes.length]);
        }
        long start = System.nanoTime();
        for (int s = 0; s < sizes.length; s++) {
            int n = sizes[s];
            Map<String, Subject> subjects = new LinkedHashMap<>();
            List<Path> dirs = new ArrayList<>();
            try {
                for (String name : configs) {
                    Path dir = Files.createTempDirectory("narrowscale-");
                    dirs.add(dir);
                    Subject subject = Configs.get(name).factory.create(dir);
                    subjects.put(name, subject);
                    long t = System.nanoTime();
                    for (int from = 0; from < n; from += CHUNK) {
                        List<Car> chunk = CarGenerator.cars(from, Math.min(CHUNK, n - from));
                        if (from == 0) {
                            subject.load(chunk);
                        } else {
                            subject.addAll(chunk);
                        }
                    }
                    long loaded = System.nanoTime();
                    boolean optimized = subject.optimize();
                    System.out.printf("n=%,d %s: load %.1f s%s%n", n, name, (loaded - t) / 1e9,
                            optimized ? String.format(", optimize %.1f s", (System.nanoTime() - loaded) / 1e9) : "");
                }
                double width = 50.0 * (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE) / n;
                SplittableRandom r = new SplittableRandom(42);
                int warm = Math.max(20, samples / 10);
                double[] lows = new double[samples + warm];
                for (int i = 0; i < lows.length; i++) {
                    lows[i] = CarGenerator.MIN_PRICE + r.nextDouble() * (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE - width);
                }
                Map<String, long[]> times = new LinkedHashMap<>();
                Map<String, long[]> rows = new LinkedHashMap<>();
                for (String name : all) {
                    times.put(name, new long[samples]);
                    rows.put(name, new long[1]);
                }
                for (int i = 0; i < lows.length; i++) {
                    // rotate the order so that no configuration always runs first
                    for (int k = 0; k < all.size(); k++) {
                        String name = all.get((i + k) % all.size());
                        String[] cv = name.split("/");
                        if (cv.length > 1) for (String prop : cv[1].split("\\+")) System.setProperty(prop, "true");
                        long t = System.nanoTime();
                        int m = subjects.get(cv[0]).range(lows[i], lows[i] + width);
                        long d = System.nanoTime() - t;
                        if (cv.length > 1) for (String prop : cv[1].split("\\+")) System.clearProperty(prop);
                        if (i >= warm) {
                            times.get(name)[i - warm] = d;
                            rows.get(name)[0] += m;
                        }
                    }
                }
                String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
                System.out.printf("%n### n = %,d (%d samples after %d warm-up, load %s)%n%n| configuration | median µs | vs cq-disk | rows |%n|---|--:|--:|--:|%n",
                        n, samples, warm, load);
                double disk = Double.NaN;
                for (String name : all) {
                    long[] t = times.get(name);
                    Arrays.sort(t);
                    double med = t[samples / 2] / 1e3;
                    medians.get(name)[s] = med;
                    if (name.equals("cq-disk")) {
                        disk = med;
                    }
                }
                for (String name : all) {
                    double med = medians.get(name)[s];
                    System.out.printf("| `%s` | %,.0f | %.2fx | %.1f |%n", name, med, med / disk,
                            rows.get(name)[0] / (double) samples);
                }
                System.out.println();
            } finally {
                for (Subject subject : subjects.values()) {
                    subject.close();
                }
                for (Path dir : dirs) {
                    try (var w = Files.walk(dir)) {
                        w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                    }
                }
            }
        }
        System.out.printf("%n### Summary: median µs per size, ratio to cq-disk, growth%n%n| configuration |");
        for (int n : sizes) System.out.printf(" %,d |", n);
        for (int n : sizes) System.out.printf(" vs cq-disk at %,d |", n);
        System.out.printf(" growth %,d -> %,d |%n|---|", sizes[0], sizes[sizes.length - 1]);
        for (int i = 0; i < 2 * sizes.length + 1; i++) System.out.print("--:|");
        System.out.println();
        double[] disk = medians.get("cq-disk");
        for (Map.Entry<String, double[]> e : medians.entrySet()) {
            double[] m = e.getValue();
            System.out.printf("| `%s` |", e.getKey());
            for (double v : m) System.out.printf(" %,.0f |", v);
            for (int i = 0; i < m.length; i++) System.out.printf(" %s |", disk == null ? "-" : String.format("%.2fx", m[i] / disk[i]));
            System.out.printf(" %.2fx |%n", m[m.length - 1] / m[0]);
        }
        System.out.printf("%nwhole run %.1f min%n", (System.nanoTime() - start) / 6e10);
    }
}
