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
 * (default cq-disk,quack-file-covering,quack-columnar-file-covering), the largest size CQEngine DiskPersistence is built at
 * (default 1000000: its 4M load takes minutes). A primary-key lookup on the first quack configuration runs in the same
 * rotation, as a floor that does not grow with the collection: it shows how much of a size's cost is the machine's
 * load at the time. JVM flags:
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
        // CQEngine DiskPersistence loads slowly (about 7 minutes for 4M on a shared machine): built only up to this size
        int diskMax = args.length > 3 ? Integer.parseInt(args[3]) : 1_000_000;
        List<String> all = new ArrayList<>(configs);
        String floor = "pk lookup (" + configs.stream().filter(c -> c.startsWith("quack")).findFirst().orElse("?") + ")";
        all.add(floor);
        Map<String, double[]> medians = new LinkedHashMap<>();
        for (String pass : List.of("first", "warm")) {
            for (String c : all) {
                medians.put(c + " (" + pass + ")", new double[sizes.length]);
            }
        }
        long start = System.nanoTime();
        for (int s = 0; s < sizes.length; s++) {
            int n = sizes[s];
            Map<String, Subject> subjects = new LinkedHashMap<>();
            List<Path> dirs = new ArrayList<>();
            try {
                for (String name : configs) {
                    if (name.startsWith("cq-disk") && n > diskMax) {
                        continue;
                    }
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
                for (String pass : List.of("first", "warm")) {
                    if (pass.equals("warm")) {
                        // a sweep over the whole price span in steps of ~4,096 objects, every configuration, so that
                        // each block a range can touch has been read once (a request-serving process's steady state)
                        int steps = Math.max(100, n / 4096);
                        double step = (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE - width) / steps;
                        long t = System.nanoTime();
                        for (Map.Entry<String, Subject> e : subjects.entrySet()) {
                            for (int k = 0; k <= steps; k++) {
                                e.getValue().range(CarGenerator.MIN_PRICE + k * step, CarGenerator.MIN_PRICE + k * step + width);
                            }
                        }
                        Subject first = subjects.get(floor.substring(11, floor.length() - 1));
                        for (int k = 0; k < n; k += Math.max(1, n / 20_000)) {
                            first.lookup(k);
                        }
                        System.out.printf("n=%,d sweep warm-up (%d ranges per configuration, 20,000 lookups) %.1f s%n", n, steps + 1, (System.nanoTime() - t) / 1e9);
                    }
                    measure(pass, n, s, samples, warm, lows, width, all, floor, subjects, medians);
                }
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
        double[] diskFirst = medians.get("cq-disk (first)");
        double[] diskWarm = medians.get("cq-disk (warm)");
        for (Map.Entry<String, double[]> e : medians.entrySet()) {
            double[] m = e.getValue();
            double[] disk = e.getKey().endsWith("(warm)") ? diskWarm : diskFirst;
            System.out.printf("| `%s` |", e.getKey());
            for (double v : m) System.out.printf(" %s |", Double.isNaN(v) ? "-" : String.format("%,.0f", v));
            for (int i = 0; i < m.length; i++) System.out.printf(" %s |", disk == null || Double.isNaN(disk[i]) || Double.isNaN(m[i]) ? "-" : String.format("%.2fx", m[i] / disk[i]));
            System.out.printf(" %s |%n", Double.isNaN(m[0]) || Double.isNaN(m[m.length - 1]) ? "-" : String.format("%.2fx", m[m.length - 1] / m[0]));
        }
        System.out.printf("%nwhole run %.1f min%n", (System.nanoTime() - start) / 6e10);
    }

    private static void measure(String pass, int n, int s, int samples, int warm, double[] lows, double width,
                                List<String> all, String floor, Map<String, Subject> subjects,
                                Map<String, double[]> medians) throws Exception {
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
                boolean isFloor = name.equals(floor);
                Subject subject = subjects.get(isFloor ? floor.substring(11, floor.length() - 1) : name);
                if (subject == null) {
                    continue;
                }
                long t = System.nanoTime();
                int m = isFloor ? (subject.lookup((int) (lows[i] * 7) % n) != null ? 1 : 0)
                : subject.range(lows[i], lows[i] + width);
                long d = System.nanoTime() - t;
                if (i >= warm) {
                    times.get(name)[i - warm] = d;
                    rows.get(name)[0] += m;
                }
            }
        }
        String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        System.out.printf("%n### n = %,d, " + pass + " pass (%d samples after %d warm-up, load %s)%n%n| configuration | median µs | vs cq-disk | rows |%n|---|--:|--:|--:|%n",
                n, samples, warm, load);
        double disk = Double.NaN;
        for (String name : all) {
            long[] t = times.get(name);
            Arrays.sort(t);
            double med = t[samples / 2] / 1e3;
            medians.get(name + " (" + pass + ")")[s] = med;
            if (t[samples - 1] == 0) {
                medians.get(name + " (" + pass + ")")[s] = Double.NaN;
            } else if (name.equals("cq-disk")) {
                disk = med;
            }
        }
        for (String name : all) {
            double med = medians.get(name + " (" + pass + ")")[s];
            if (Double.isNaN(med)) {
                continue;
            }
            System.out.printf("| `%s` | %,.0f | %s | %.1f |%n", name, med,
                    Double.isNaN(disk) ? "-" : String.format("%.2fx", med / disk), rows.get(name)[0] / (double) samples);
        }
        System.out.println();
    }
}
