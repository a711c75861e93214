package io.quackjvm.bench.probes;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * A collection of N objects on one machine against the same collection of 1M, in two steps run as separate
 * commands (so that the second measures a process that only reopened the files):
 *
 * <ul>
 *   <li>{@code load DIR N SLICE LIMIT}: loads {@code cars-1000000.duckdb} and {@code cars-N.duckdb} in DIR (blob
 *   layout, primary key, a DuckDBIndex on manufacturer and a covering one on price) through a sliced bulk writer
 *   ({@code commitEvery(SLICE)}, under {@code memoryLimit(LIMIT)}); a load that was stopped resumes after its last
 *   committed slice when the command is run again. Appends the load's times and file size to DIR/load.md.</li>
 *   <li>{@code optimize DIR N [LIMIT]}: {@code optimize()} on both files, as docs/tuning.md says to after a bulk
 *   load (sorts the index tables by value); appends its time to DIR/load.md.</li>
 *   <li>{@code query DIR N ROUNDS [LIMIT] --out FILE}: reopens the large file alone with {@code memoryLimit("256MB")}
 *   (RSS after reopening and after one query of each kind; then how many random lookups that limit serves), then
 *   both files with {@code memoryLimit(LIMIT)} (default 2GB) each, and times in interleaved rounds point lookups
 *   by key, a range of about 50 prices answered by the covering index, a count of one manufacturer, and a group-by
 *   count per manufacturer, on both; samples RSS throughout. Writes the report
 *   (with DIR/load.md) to FILE.</li>
 * </ul>
 */
public final class ScaleProbe {

    private static final int SMALL = 1_000_000;
    private static final int LOOKUPS = 200;

    private ScaleProbe() {
    }

    static long rssKb() {
        return LargeLoadProbe.rssKb();
    }

    private static Path fileFor(Path dir, long n) {
        return dir.resolve("cars-" + n + ".duckdb");
    }

    private static IndexedCollection<Car> cars(DuckDBDatabase db) {
        IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(DuckDBIndex.onAttributeCovering(Car.PRICE));
        return cars;
    }

    public static void main(String[] argv) throws Exception {
        ProbeReport.Args a = ProbeReport.Args.parse(argv, "benchmarks/results/current/scale-100m.md");
        String[] args = a.positional();
        Path dir = Path.of(args[1]);
        long n = Long.parseLong(args[2]);
        if (args[0].equals("load")) {
            long slice = Long.parseLong(args[3]);
            String limit = args[4];
            Files.createDirectories(dir);
            for (long size : n == SMALL ? new long[]{SMALL} : new long[]{SMALL, n}) {
                load(dir, size, slice, limit);
            }
        } else if (args[0].equals("optimize")) {
            for (long size : n == SMALL ? new long[]{SMALL} : new long[]{SMALL, n}) {
                optimize(dir, size, args.length > 3 ? args[3] : "6GB");
            }
        } else {
            query(dir, n, ProbeReport.intArg(args, 3, 5), args.length > 4 ? args[4] : "2GB", a.out());
        }
    }

    private static void load(Path dir, long n, long slice, String limit) throws Exception {
        Path file = fileFor(dir, n);
        long t0 = System.nanoTime();
        long resumed;
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).memoryLimit(limit).build()) {
            IndexedCollection<Car> cars = cars(db);
            if (cars.size() == n) {
                System.out.printf(Locale.ROOT, "%s holds %,d cars already%n", file, n);
                return;
            }
            long[] sliceStart = {System.nanoTime()};
            try (DuckDBBulkWriter<Car> w = db.bulkWriter(cars).commitEvery(slice)) {
                resumed = w.resumedAfter();
                System.out.printf(Locale.ROOT, "%s: loading %,d cars, resuming after %,d%n", file, n, resumed);
                w.addAll(() -> new Iterator<>() {
                    long next;

                    @Override
                    public boolean hasNext() {
                        return next < n;
                    }

                    @Override
                    public Car next() {
                        if (next > resumed && next % slice == 0) {
                            long now = System.nanoTime();
                            System.out.printf(Locale.ROOT, "committed %,d: slice %.0f s, RSS %d MB, file %d MB%n",
                                    next, (now - sliceStart[0]) / 1e9, rssKb() / 1024,
                                    LargeLoadProbe.size(file) >> 20);
                            sliceStart[0] = now;
                        }
                        return CarGenerator.car((int) next++);
                    }
                });
                w.commit();
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String line = String.format(Locale.ROOT, "| %,d | %,d | %,.0f | %,d | %s | %s |%n", n, resumed, seconds,
                LargeLoadProbe.size(file) >> 20, io.quackjvm.bench.harness.Worker.loadAverage(),
                io.quackjvm.bench.harness.Stamp.commit());
        Path log = dir.resolve("load.md");
        if (!Files.exists(log)) {
            Files.writeString(log, "| objects | resumed after (or step) | s | file MB | load average at the end | "
                    + "commit |\n|--:|--:|--:|--:|---|---|\n");
        }
        Files.writeString(log, line, StandardOpenOption.APPEND);
        System.out.print(line);
    }

    /** What a user does after a bulk load ({@code docs/tuning.md}): sorts the index tables by value. */
    private static void optimize(Path dir, long n, String limit) throws Exception {
        Path file = fileFor(dir, n);
        long t0 = System.nanoTime();
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).memoryLimit(limit).build()) {
            db.optimize(cars(db));
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String line = String.format(Locale.ROOT, "| %,d | optimize() | %,.0f | %,d | %s | %s |%n", n, seconds,
                LargeLoadProbe.size(file) >> 20, io.quackjvm.bench.harness.Worker.loadAverage(),
                io.quackjvm.bench.harness.Stamp.commit());
        Files.writeString(dir.resolve("load.md"), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        System.out.print(line);
    }

    /** One measure on both sizes: every sample, in microseconds. */
    private record Measure(String name, List<Long> small, List<Long> large) {
    }

    /** RSS sampled every 100 ms while it runs: the largest seen since the last {@link #reset}. */
    private static final class RssSampler implements AutoCloseable {
        final AtomicLong max = new AtomicLong();
        final Thread thread = new Thread(this::sample, "rss-sampler");

        RssSampler() {
            thread.setDaemon(true);
            thread.start();
        }

        private void sample() {
            while (!Thread.currentThread().isInterrupted()) {
                max.accumulateAndGet(rssKb(), Math::max);
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        long maxKb() {
            return Math.max(max.get(), rssKb());
        }

        void reset() {
            max.set(0);
        }

        @Override
        public void close() {
            thread.interrupt();
        }
    }

    private static void query(Path dir, long n, int rounds, String limit, Path out) throws Exception {
        long start = System.nanoTime();
        StringBuilder md = ProbeReport.stamped(ScaleProbe.class, "query", dir, n, rounds, limit);
        md.append(String.format(Locale.ROOT, "# %,d objects on one machine, against 1,000,000%n%n", n))
                .append("Blob layout, primary key, a DuckDBIndex on manufacturer and a covering DuckDBIndex on "
                        + "price, loaded by a sliced bulk writer (`commitEvery`). Heap ")
                .append(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .filter(f -> f.startsWith("-Xmx")).findFirst().orElse("default"))
                .append(".\n\n");
        try (RssSampler rss = new RssSampler()) {
            alone(dir, n, rss, md);
            interleaved(dir, n, rounds, limit, rss, md);
        }
        md.append(String.format(Locale.ROOT, "%nFiles: 1M %,d MB, %,d: %,d MB.%n",
                LargeLoadProbe.size(fileFor(dir, SMALL)) >> 20, n, LargeLoadProbe.size(fileFor(dir, n)) >> 20));
        Path log = dir.resolve("load.md");
        if (Files.exists(log)) {
            md.append("\n## Loads\n\n").append(Files.readString(log));
        }
        ProbeReport.finish(md, start, out);
    }

    /**
     * The large file alone under {@code memoryLimit("256MB")}: RSS after reopening it and after one query of each
     * kind, then random point lookups until DuckDB refuses one or 5,000 succeeded.
     */
    private static void alone(Path dir, long n, RssSampler rss, StringBuilder md) {
        long before = rssKb();
        rss.reset();
        md.append("## The large file alone, memoryLimit(\"256MB\")\n\n");
        try (DuckDBDatabase large = DuckDBDatabase.builder().file(fileFor(dir, n)).memoryLimit("256MB").build()) {
            IndexedCollection<Car> big = cars(large);
            long opened = rssKb();
            Random random = new Random(7);
            try (ResultSet<Car> rs = big.retrieve(equal(Car.CAR_ID, (int) (random.nextDouble() * n)))) {
                rs.stream().count();
            }
            try (ResultSet<Car> rs = big.retrieve(between(Car.PRICE, 20_000.0, 20_000.0
                    + (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE) * 50.0 / n))) {
                rs.stream().count();
            }
            try (ResultSet<Car> rs = big.retrieve(equal(Car.MANUFACTURER, CarGenerator.manufacturer(0)))) {
                rs.size();
            }
            large.from(big).groupBy(Car.MANUFACTURER).count().size();
            long afterEach = rss.maxKb();
            md.append(String.format(Locale.ROOT, "RSS: %d MB before opening, %d MB after reopening, %d MB at most "
                            + "through one lookup, one covering range, one count and one group-by (target ≤ 512 MB: "
                            + "%s).%n%n", before / 1024, opened / 1024, afterEach / 1024,
                    afterEach <= 512 * 1024 ? "met" : "not met"));
            int done = 0;
            String refused = null;
            for (; done < 5_000; done++) {
                try (ResultSet<Car> rs = big.retrieve(equal(Car.CAR_ID, (int) (random.nextDouble() * n)))) {
                    rs.stream().count();
                } catch (RuntimeException e) {
                    refused = e.getMessage().lines().findFirst().orElse("");
                    break;
                }
            }
            md.append(String.format(Locale.ROOT, "Random point lookups after that: %,d succeeded%s; RSS at most "
                    + "%d MB.%n%n", done, refused == null ? "" : ", then DuckDB refused one: "
                    + (refused.length() > 300 ? refused.substring(0, 300) + "..." : refused).replace('|', '/'), rss.maxKb() / 1024));
        }
    }

    /** Both files open under {@code limit} each, measured in interleaved rounds. */
    private static void interleaved(Path dir, long n, int rounds, String limit, RssSampler rss, StringBuilder md) {
        rss.reset();
        try (DuckDBDatabase large = DuckDBDatabase.builder().file(fileFor(dir, n)).memoryLimit(limit).build();
             DuckDBDatabase small = DuckDBDatabase.builder().file(fileFor(dir, SMALL)).memoryLimit(limit).build()) {
            IndexedCollection<Car> big = cars(large);
            IndexedCollection<Car> one = cars(small);
            List<Measure> measures = List.of(new Measure("point lookup by key", new ArrayList<>(), new ArrayList<>()),
                    new Measure("range of ~50 prices (covering index)", new ArrayList<>(), new ArrayList<>()),
                    new Measure("count of one manufacturer", new ArrayList<>(), new ArrayList<>()),
                    new Measure("group-by count per manufacturer", new ArrayList<>(), new ArrayList<>()),
                    new Measure("point lookup by key, the same 200 keys every round", new ArrayList<>(),
                            new ArrayList<>()));
            int[] hot = new Random(3).ints(LOOKUPS, 0, SMALL).toArray();   // spread by * size / SMALL below
            Random random = new Random(42);
            long[] rows = new long[4];
            for (int round = -1; round < rounds; round++) {   // round -1 warms up
                boolean largeFirst = round % 2 == 0;
                for (int side = 0; side < 2; side++) {
                    boolean onLarge = (side == 0) == largeFirst;
                    IndexedCollection<Car> cars = onLarge ? big : one;
                    DuckDBDatabase db = onLarge ? large : small;
                    long size = onLarge ? n : SMALL;
                    List<long[]> samples = List.of(new long[LOOKUPS], new long[20], new long[5], new long[3],
                            new long[LOOKUPS]);
                    for (int i = 0; i < LOOKUPS; i++) {
                        int key = (int) (random.nextDouble() * size);
                        long t = System.nanoTime();
                        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, key))) {
                            rows[0] = rs.stream().count();
                        }
                        samples.get(0)[i] = (System.nanoTime() - t) / 1000;
                    }
                    double width = (CarGenerator.MAX_PRICE - CarGenerator.MIN_PRICE) * 50.0 / size;
                    for (int i = 0; i < 20; i++) {
                        double from = CarGenerator.MIN_PRICE + random.nextDouble() * (CarGenerator.MAX_PRICE
                                - CarGenerator.MIN_PRICE - width);
                        long t = System.nanoTime();
                        try (ResultSet<Car> rs = cars.retrieve(between(Car.PRICE, from, from + width))) {
                            rows[1] = rs.stream().count();
                        }
                        samples.get(1)[i] = (System.nanoTime() - t) / 1000;
                    }
                    for (int i = 0; i < 5; i++) {
                        long t = System.nanoTime();
                        try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, CarGenerator.manufacturer(i)))) {
                            rows[2] = rs.size();
                        }
                        samples.get(2)[i] = (System.nanoTime() - t) / 1000;
                    }
                    for (int i = 0; i < 3; i++) {
                        long t = System.nanoTime();
                        rows[3] = db.from(cars).groupBy(Car.MANUFACTURER).count().size();
                        samples.get(3)[i] = (System.nanoTime() - t) / 1000;
                    }
                    for (int i = 0; i < LOOKUPS; i++) {
                        int key = (int) (hot[i] * (size / SMALL));
                        long t = System.nanoTime();
                        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, key))) {
                            rows[0] = rs.stream().count();
                        }
                        samples.get(4)[i] = (System.nanoTime() - t) / 1000;
                    }
                    if (round >= 0) {
                        for (int m = 0; m < measures.size(); m++) {
                            List<Long> into = onLarge ? measures.get(m).large() : measures.get(m).small();
                            for (long v : samples.get(m)) {
                                into.add(v);
                            }
                        }
                    }
                }
            }
            md.append(String.format(Locale.ROOT, "## Both files, memoryLimit(\"%s\") each, interleaved%n%n", limit))
                    .append("Both files reopened in this JVM, then measured in interleaved rounds (the order of the "
                            + "two files alternating) after a warm-up round. Times in µs: median, and p90.\n\n")
                    .append("| measure | 1M median | 1M p90 | ").append(String.format(Locale.ROOT, "%,d", n))
                    .append(" median | p90 | large ÷ 1M (median) |\n|---|--:|--:|--:|--:|--:|\n");
            for (Measure m : measures) {
                long s = ProbeReport.median(m.small());
                long l = ProbeReport.median(m.large());
                md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %.2f |%n", m.name(), s,
                        p90(m.small()), l, p90(m.large()), (double) l / s));
            }
            long lookupSmall = ProbeReport.median(measures.get(0).small());
            long lookupLarge = ProbeReport.median(measures.get(0).large());
            md.append(String.format(Locale.ROOT, "%nPoint lookup at %,d ÷ at 1M = %.2f (target ≤ 1.5: %s). RSS at "
                            + "most %d MB with both open. Last rows read: %d, %d, %d, %d.%n", n,
                    (double) lookupLarge / lookupSmall, lookupLarge <= 1.5 * lookupSmall ? "met" : "not met",
                    rss.maxKb() / 1024, rows[0], rows[1], rows[2], rows[3]));
        }
    }

    private static long p90(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.isEmpty() ? 0 : sorted.get((int) Math.min(sorted.size() - 1, sorted.size() * 0.9));
    }
}
