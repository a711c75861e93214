package io.quackjvm.bench.harness;

import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The interleaved mode: every configuration built in <em>one</em> JVM, then measured in rounds; in each round every
 * operation runs a small batch on every configuration, in an order shuffled anew for each operation of each round,
 * on the same keys. A busy machine, a JIT phase or DuckDB moving between its scheduling levels then hits every
 * configuration alike, which forks measured one after another cannot promise for figures under a millisecond.
 * Reports the median and p90 of all samples, the spread of the per-round medians and the ratio to a baseline.
 *
 * <p>Operations: {@code lookup} (primary key), {@code count} (matches of an equality on manufacturer, ~2%),
 * {@code range} (narrow price range, ~40 matches), {@code add} (one new object), {@code sum} (sum of price over a
 * manufacturer, {@code database.from(cars)}) and {@code groupby} (count grouped by manufacturer); the last two only
 * where the configuration has an aggregate API.
 *
 * <p>With {@code --builds name=DIR,name=DIR} each build of the library (a built checkout or a folder of its jars)
 * gets a {@link BuildLoader} of its own and the configurations run once per build, labelled {@code name/config}:
 * the before/after comparison of an engine change, with a table of each build's ratio to the first.
 *
 * <pre>
 *   java --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED -cp ... \
 *        io.quackjvm.bench.harness.Rounds [--mode tiny|quick|full] [--objects N] [--rounds R]
 *        [--configs a,b] [--builds name=DIR,...] [--ops lookup,count,range,add,sum,groupby] [--out DIR]
 * </pre>
 * Writes {@code summary.md} and {@code results.csv} to {@code --out}. Exit code 1 when a configuration gives a
 * wrong answer or throws; never on a timing.
 */
public final class Rounds {

    /** Operations in report order. */
    static final List<String> OPS = List.of("lookup", "count", "range", "add", "sum", "groupby");
    static final List<String> DEFAULT_CONFIGS = List.of("cq-onheap", "cq-disk", "raw-jdbc-file", "quack-file",
            "quack-columnar-file", "quack-db-file", "quack-db-columnar-file");
    static final List<String> DEFAULT_BUILD_CONFIGS = List.of("quack-file", "quack-columnar-file", "quack-db-file",
            "quack-db-columnar-file");

    private record Entry(String label, String build, String config, Subject subject, BuildLoader loader) {
    }

    private Rounds() {
    }

    public static void main(String[] args) throws Exception {
        Mode mode = Mode.QUICK;
        Integer objects = null;
        Integer roundsArg = null;
        List<String> configs = null;
        Map<String, Path> builds = new LinkedHashMap<>();
        List<String> ops = OPS;
        Path out = Paths.get("results/raw/interleaved");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--mode" -> mode = Mode.parse(args[++i]);
                case "--objects" -> objects = Integer.parseInt(args[++i].replace("_", ""));
                case "--rounds" -> roundsArg = Integer.parseInt(args[++i]);
                case "--configs" -> configs = Arrays.asList(args[++i].split(","));
                case "--ops" -> ops = Arrays.asList(args[++i].split(","));
                case "--out" -> out = Paths.get(args[++i]);
                case "--builds" -> {
                    for (String b : args[++i].split(",")) {
                        String[] kv = b.split("=", 2);
                        if (kv.length != 2) {
                            throw new IllegalArgumentException("--builds takes name=DIR,name=DIR, not " + b);
                        }
                        builds.put(kv[0].trim(), Paths.get(kv[1].trim()).toAbsolutePath().normalize());
                    }
                }
                case "" -> { }
                default -> throw new IllegalArgumentException("Unknown argument '" + args[i] + "'. Usage: [--mode tiny|quick|full] "
                        + "[--objects N] [--rounds R] [--configs a,b] [--builds name=DIR,...] [--ops " + String.join(",", OPS)
                        + "] [--out DIR]");
            }
        }
        for (String op : ops) {
            if (!OPS.contains(op)) {
                throw new IllegalArgumentException("Unknown operation " + op + "; known: " + OPS);
            }
        }
        int n = objects == null ? mode.objects : objects;
        int rounds = roundsArg != null ? roundsArg : mode == Mode.TINY ? 3 : mode == Mode.QUICK ? 30 : 60;
        int warmRounds = mode == Mode.TINY ? 1 : 3;
        Map<String, Integer> batch = Map.of("lookup", mode == Mode.TINY ? 20 : 100, "count", mode == Mode.TINY ? 3 : 10,
                "range", mode == Mode.TINY ? 3 : 10, "add", mode == Mode.TINY ? 2 : 5, "sum", mode == Mode.TINY ? 2 : 5,
                "groupby", 1);
        if (configs == null) {
            configs = builds.isEmpty() ? DEFAULT_CONFIGS : DEFAULT_BUILD_CONFIGS;
        }

        Instant started = Instant.now();
        String loadStart = Worker.loadAverage();
        Path scratch = Files.createTempDirectory("quackjvm-rounds-");
        List<Entry> entries = new ArrayList<>();
        StringBuilder md = new StringBuilder();
        boolean broken = false;
        try {
            System.out.println("interleaved rounds: " + n + " objects, " + rounds + " rounds, configurations " + configs
                    + (builds.isEmpty() ? "" : ", builds " + builds));
            List<Car> cars = CarGenerator.cars(0, n);
            List<BuildLoader> loaders = new ArrayList<>();
            for (Map.Entry<String, Path> b : builds.entrySet()) {
                loaders.add(BuildLoader.of(b.getKey(), b.getValue()));
            }
            for (String config : configs) {
                boolean perBuild = RoundsSubjects.OWN.contains(config) || config.startsWith("quack");
                List<BuildLoader> where = loaders.isEmpty() ? Collections.singletonList(null)
                        : perBuild ? loaders : List.of(loaders.get(0));
                for (BuildLoader loader : where) {
                    String build = loader == null || !perBuild ? "" : loader.name;
                    String label = build.isEmpty() ? config : build + "/" + config;
                    Path dir = Files.createDirectories(scratch.resolve(label.replace('/', '_')));
                    long t0 = System.nanoTime();
                    Subject s = create(loader, config, dir);
                    s.load(cars);
                    s.optimize();
                    System.out.printf(Locale.ROOT, "  %-34s loaded and optimized in %.1f s%n", label, (System.nanoTime() - t0) / 1e9);
                    entries.add(new Entry(label, build, config, s, loader));
                }
            }
            cars = null;
            System.gc();

            // samples[entry][op] -> all samples in ns; roundMedians[entry][op] -> one median per round
            Map<String, Map<String, List<Long>>> samples = new LinkedHashMap<>();
            Map<String, Map<String, List<Double>>> roundMedians = new LinkedHashMap<>();
            Map<String, Map<String, String>> notApplicable = new LinkedHashMap<>();
            for (Entry e : entries) {
                samples.put(e.label, new LinkedHashMap<>());
                roundMedians.put(e.label, new LinkedHashMap<>());
                notApplicable.put(e.label, new LinkedHashMap<>());
                for (String op : ops) {
                    samples.get(e.label).put(op, new ArrayList<>());
                    roundMedians.get(e.label).put(op, new ArrayList<>());
                }
            }
            SplittableRandom keys = new SplittableRandom(CarGenerator.SEED + 23);
            Random shuffle = new Random(CarGenerator.SEED + 29);
            double width = 40.0 * (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE) / n;
            int nextKey = n;
            for (int round = -warmRounds; round < rounds; round++) {
                for (String op : ops) {
                    int size = batch.get(op);
                    int[] ks = new int[size];
                    String[] makers = new String[size];
                    double[] lows = new double[size];
                    for (int i = 0; i < size; i++) {
                        ks[i] = keys.nextInt(n);
                        makers[i] = CarGenerator.manufacturer(keys.nextInt(CarGenerator.MANUFACTURERS));
                        lows[i] = CarGenerator.MIN_PRICE + keys.nextDouble() * (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE - width);
                    }
                    int firstNew = nextKey;
                    if (op.equals("add")) {
                        nextKey += size;
                    }
                    List<Entry> order = new ArrayList<>(entries);
                    Collections.shuffle(order, shuffle);
                    Map<String, List<Object>> answers = new LinkedHashMap<>();
                    for (Entry e : order) {
                        if (notApplicable.get(e.label).containsKey(op)) {
                            continue;
                        }
                        long[] times = new long[size];
                        List<Object> answer = new ArrayList<>();
                        try {
                            for (int i = 0; i < size; i++) {
                                int k = ks[i];
                                String m = makers[i];
                                double lo = lows[i];
                                int id = firstNew + i;
                                long t0 = System.nanoTime();
                                Object a = switch (op) {
                                    case "lookup" -> e.subject.lookup(k);
                                    case "count" -> e.subject.count(m);
                                    case "range" -> e.subject.range(lo, lo + width);
                                    case "add" -> {
                                        e.subject.add(CarGenerator.car(id));
                                        yield "";
                                    }
                                    case "sum" -> e.subject.sumPrice(m);
                                    case "groupby" -> e.subject.groupCount();
                                    default -> throw new IllegalStateException(op);
                                };
                                times[i] = System.nanoTime() - t0;
                                if (op.equals("lookup")) {
                                    Car c = (Car) a;
                                    if (c == null || c.getCarId() != k) {
                                        throw new IllegalStateException("lookup(" + k + ") returned " + c);
                                    }
                                } else {
                                    answer.add(a);
                                }
                            }
                        } catch (Subject.NotApplicable na) {
                            notApplicable.get(e.label).put(op, na.getMessage());
                            continue;
                        }
                        answers.put(e.label, answer);
                        if (round >= 0) {
                            Arrays.sort(times);
                            roundMedians.get(e.label).get(op).add(median(times) / 1e3);
                            for (long t : times) {
                                samples.get(e.label).get(op).add(t);
                            }
                        }
                    }
                    if (!agree(answers.values())) {
                        throw new IllegalStateException("the configurations disagree on " + op + " in round " + round + ": " + answers);
                    }
                }
            }
            md.append(report(n, rounds, batch, ops, entries, samples, roundMedians, notApplicable, builds));
            Files.createDirectories(out);
            Files.writeString(out.resolve("results.csv"), csv(ops, entries, samples, roundMedians));
        } catch (Throwable t) {
            broken = true;
            t.printStackTrace();
            md.append("\n**Failed:** ").append(t).append('\n');
        } finally {
            for (Entry e : entries) {
                try {
                    if (e.loader != null) {
                        e.loader.call(() -> {
                            e.subject.close();
                            return null;
                        });
                    } else {
                        e.subject.close();
                    }
                } catch (Exception ex) {
                    System.err.println("closing " + e.label + ": " + ex);
                }
            }
            Worker.deleteRecursively(scratch);
        }
        String head = "# Interleaved rounds: " + n + " objects, every configuration in one JVM\n\n"
                + "Generated by `io.quackjvm.bench.harness.Rounds` (" + Stamp.machine() + "), load average "
                + loadStart + " at the start and " + Worker.loadAverage() + " at the end, started " + started + ".\n\n";
        Files.createDirectories(out);
        Files.writeString(out.resolve("summary.md"), head + md);
        System.out.println(head + md);
        if (broken) {
            System.exit(1);
        }
    }

    /** Whether every list of answers equals the first; sums to 1e-9 relative (DuckDB may add in another order). */
    private static boolean agree(java.util.Collection<List<Object>> answers) {
        List<Object> first = null;
        for (List<Object> a : answers) {
            if (first == null) {
                first = a;
                continue;
            }
            for (int i = 0; i < a.size(); i++) {
                Object x = first.get(i);
                Object y = a.get(i);
                boolean same = x instanceof Double dx && y instanceof Double dy
                        ? Math.abs(dx - dy) <= 1e-9 * Math.max(1, Math.abs(dx)) : x.equals(y);
                if (!same) {
                    return false;
                }
            }
        }
        return true;
    }

    private static Subject create(BuildLoader loader, String config, Path dir) throws Exception {
        if (loader == null) {
            return RoundsSubjects.create(config, dir);
        }
        return loader.call(() -> (Subject) Class.forName(RoundsSubjects.class.getName(), true, loader)
                .getMethod("create", String.class, Path.class).invoke(null, config, dir));
    }

    private static double median(long[] sorted) {
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2.0;
    }

    private static double percentile(List<Long> values, double p) {
        long[] s = values.stream().mapToLong(Long::longValue).sorted().toArray();
        if (p == 0.5) {
            return median(s) / 1e3;
        }
        return s[Math.min(s.length - 1, (int) Math.floor(p * s.length))] / 1e3;
    }

    static String fmt(double us) {
        if (us >= 100_000) {
            return String.format(Locale.ROOT, "%,.0f", us);
        }
        if (us >= 100) {
            return String.format(Locale.ROOT, "%.0f", us);
        }
        if (us >= 10) {
            return String.format(Locale.ROOT, "%.1f", us);
        }
        return String.format(Locale.ROOT, "%.2f", us);
    }

    private static String csv(List<String> ops, List<Entry> entries, Map<String, Map<String, List<Long>>> samples,
                              Map<String, Map<String, List<Double>>> roundMedians) {
        StringBuilder sb = new StringBuilder("label,build,config,op,median_us,p90_us,samples,round_median_min_us,round_median_max_us\n");
        for (Entry e : entries) {
            for (String op : ops) {
                List<Long> s = samples.get(e.label).get(op);
                if (s.isEmpty()) {
                    continue;
                }
                List<Double> r = roundMedians.get(e.label).get(op);
                sb.append(e.label).append(',').append(e.build).append(',').append(e.config).append(',').append(op).append(',')
                        .append(String.format(Locale.ROOT, "%.3f,%.3f,%d,%.3f,%.3f", percentile(s, 0.5), percentile(s, 0.9),
                                s.size(), Collections.min(r), Collections.max(r))).append('\n');
            }
        }
        return sb.toString();
    }

    private static String report(int n, int rounds, Map<String, Integer> batch, List<String> ops, List<Entry> entries,
                                 Map<String, Map<String, List<Long>>> samples,
                                 Map<String, Map<String, List<Double>>> roundMedians,
                                 Map<String, Map<String, String>> notApplicable, Map<String, Path> builds) {
        StringBuilder sb = new StringBuilder();
        sb.append("Every configuration was loaded with the same ").append(n).append(" cars and `optimize()`d where it can be; then ")
                .append(rounds).append(" measured rounds (after warm-up rounds). In each round each operation ran a batch on every ")
                .append("configuration, in an order shuffled for that operation and round, on the same keys: ");
        for (String op : ops) {
            sb.append('`').append(op).append("` ").append(batch.get(op)).append(", ");
        }
        sb.setLength(sb.length() - 2);
        sb.append(" per round. Times in µs: the median and p90 of all samples, and the lowest and highest of the per-round ")
                .append("medians (how much the machine moved during the run). Every configuration's answers were checked to agree.\n\n");
        if (!builds.isEmpty()) {
            sb.append("Builds:\n\n");
            builds.forEach((k, v) -> sb.append("- `").append(k).append("`: ").append(v).append('\n'));
            sb.append('\n');
        }
        sb.append("## Configurations\n\n");
        for (Entry e : entries) {
            String d = e.subject.describe();
            sb.append("- `").append(e.label).append("`: ").append(d == null || d.isEmpty() ? e.config : d).append('\n');
        }
        for (String op : ops) {
            sb.append("\n## ").append(op).append("\n\n| configuration | median µs | p90 µs | per-round medians µs | samples |\n|---|--:|--:|--:|--:|\n");
            for (Entry e : entries) {
                List<Long> s = samples.get(e.label).get(op);
                if (s.isEmpty()) {
                    sb.append("| `").append(e.label).append("` | n/a | | ").append(notApplicable.get(e.label).getOrDefault(op, ""))
                            .append(" | |\n");
                    continue;
                }
                List<Double> r = roundMedians.get(e.label).get(op);
                sb.append("| `").append(e.label).append("` | ").append(fmt(percentile(s, 0.5))).append(" | ")
                        .append(fmt(percentile(s, 0.9))).append(" | ").append(fmt(Collections.min(r))).append("-")
                        .append(fmt(Collections.max(r))).append(" | ").append(s.size()).append(" |\n");
            }
        }
        if (builds.size() >= 2) {
            String first = builds.keySet().iterator().next();
            sb.append("\n## Builds against `").append(first).append("`\n\nRatio of the medians, `build ÷ ").append(first)
                    .append("`: below 1 is faster. Differences inside the per-round spread above are noise.\n\n| configuration | operation");
            List<String> others = new ArrayList<>(builds.keySet()).subList(1, builds.size());
            for (String b : builds.keySet()) {
                sb.append(" | ").append(b).append(" µs");
            }
            for (String b : others) {
                sb.append(" | ").append(b).append(" ÷ ").append(first);
            }
            sb.append(" |\n|---|---").append("|--:".repeat(builds.size() + others.size())).append("|\n");
            List<String> configs = entries.stream().filter(e -> !e.build.isEmpty()).map(Entry::config).distinct().toList();
            for (String config : configs) {
                for (String op : ops) {
                    Map<String, Double> med = new LinkedHashMap<>();
                    for (String b : builds.keySet()) {
                        List<Long> s = samples.get(b + "/" + config).get(op);
                        if (!s.isEmpty()) {
                            med.put(b, percentile(s, 0.5));
                        }
                    }
                    if (med.size() < builds.size()) {
                        continue;
                    }
                    sb.append("| `").append(config).append("` | ").append(op);
                    for (String b : builds.keySet()) {
                        sb.append(" | ").append(fmt(med.get(b)));
                    }
                    for (String b : others) {
                        sb.append(" | ").append(String.format(Locale.ROOT, "%.2f", med.get(b) / med.get(first)));
                    }
                    sb.append(" |\n");
                }
            }
        }
        return sb.toString();
    }
}
