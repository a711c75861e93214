package io.quackjvm.bench.probes;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * Admission control's trade-off: 4 threads of point lookups by key while 2 threads run group-bys (sum of price per
 * manufacturer) over N cars in one file, with {@code maxConcurrentQueries} unset and at each limit given. The
 * configurations take turns, round after round, in one JVM on one file (closed and reopened with each setting),
 * so that the machine's drift falls on all of them alike. Reports per configuration the medians over rounds of the
 * lookups' p50 and p99 and of the group-bys per second, and their ratios to no limit.
 *
 * <p>Arguments: N (default 1,000,000), seconds per run (default 15), rounds (default 3), the limits to try
 * (default "1,2"), DuckDB's {@code threads} setting (default: DuckDB's own), {@code --out FILE}.
 */
public final class AdmissionProbe {

    private static final int LOOKUP_THREADS = 4;
    private static final int GROUP_BY_THREADS = 2;
    /** The configuration of the lookups alone, without group-bys and without a limit: the lookups' own floor. */
    private static final int ALONE = -1;

    /** DuckDB's threads setting for every configuration, or {@code null} for DuckDB's default. */
    private static String threads;

    private AdmissionProbe() {
    }

    /** One run's figures: lookup latencies in microseconds (p50, p99), lookups and group-bys per second. */
    record Run(long p50, long p99, double lookupsPerSecond, double groupBysPerSecond) {
    }

    public static void main(String[] argv) throws Exception {
        ProbeReport.Args a = ProbeReport.Args.parse(argv, "benchmarks/results/current/admission.md");
        String[] args = a.positional();
        int n = ProbeReport.intArg(args, 0, 1_000_000);
        int seconds = ProbeReport.intArg(args, 1, 15);
        int rounds = ProbeReport.intArg(args, 2, 3);
        int[] limits = Arrays.stream(ProbeReport.arg(args, 3, "1,2").split(",")).mapToInt(Integer::parseInt).toArray();
        threads = ProbeReport.arg(args, 4, null);
        long start = System.nanoTime();
        // stamped now, so that the load average it gives is the machine's before the probe loads it
        StringBuilder md = ProbeReport.stamped(AdmissionProbe.class, n, seconds, rounds,
                Arrays.toString(limits).replace(" ", "").replace("[", "").replace("]", ""),
                threads == null ? "" : threads);
        Path dir = Files.createTempDirectory("admission-probe");
        Path file = dir.resolve("cars.duckdb");
        try {
            try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).build()) {
                IndexedCollection<Car> cars = cars(db);
                try (DuckDBBulkWriter<Car> w = db.bulkWriter(cars)) {
                    for (int from = 0; from < n; from += 100_000) {
                        w.addAll(CarGenerator.cars(from, Math.min(100_000, n - from)));
                    }
                    w.commit();
                }
                db.compact();
            }
            Map<Integer, List<Run>> runs = new LinkedHashMap<>();
            runs.put(0, new ArrayList<>());
            runs.put(ALONE, new ArrayList<>());
            for (int limit : limits) {
                runs.put(limit, new ArrayList<>());
            }
            for (int round = 0; round < rounds; round++) {
                for (int limit : runs.keySet()) {
                    Run r = measure(file, n, seconds, limit, round);
                    runs.get(limit).add(r);
                    System.out.printf(Locale.ROOT, "round %d, %s: %s%n", round + 1, label(limit), r);
                }
            }
            write(md, a.out(), runs, n, seconds, rounds, start);
        } finally {
            ProbeReport.delete(dir);
        }
    }

    private static IndexedCollection<Car> cars(DuckDBDatabase db) {
        IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
        return cars;
    }

    private static Run measure(Path file, int n, int seconds, int limit, int round) throws Exception {
        DuckDBDatabase.Builder b = DuckDBDatabase.builder().file(file);
        if (threads != null) {
            b.property("threads", threads);
        }
        if (limit > 0) {
            b.maxConcurrentQueries(limit).admissionTimeout(Duration.ofMinutes(5));
        }
        int groupByThreads = limit == ALONE ? 0 : GROUP_BY_THREADS;
        try (DuckDBDatabase db = b.build()) {
            IndexedCollection<Car> cars = cars(db);
            // warm: the lookups' statements and the group-by's plan
            Random warm = new Random(round);
            for (int i = 0; i < 2_000; i++) {
                cars.retrieve(equal(Car.CAR_ID, warm.nextInt(n))).forEach(c -> { });
            }
            db.from(cars).groupBy(Car.MANUFACTURER).sum(Car.PRICE);

            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch go = new CountDownLatch(1);
            List<long[]> latencies = new ArrayList<>();
            int[] counts = new int[LOOKUP_THREADS];
            AtomicLong groupBys = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < LOOKUP_THREADS; t++) {
                long[] mine = new long[4_000_000];
                latencies.add(mine);
                int me = t;
                threads.add(new Thread(() -> {
                    Random r = new Random(31L * round + me);
                    await(go);
                    int k = 0;
                    while (!stop.get() && k < mine.length) {
                        long t0 = System.nanoTime();
                        cars.retrieve(equal(Car.CAR_ID, r.nextInt(n))).forEach(c -> { });
                        mine[k++] = System.nanoTime() - t0;
                    }
                    counts[me] = k;
                }, "lookup-" + t));
            }
            for (int t = 0; t < groupByThreads; t++) {
                threads.add(new Thread(() -> {
                    await(go);
                    while (!stop.get()) {
                        db.from(cars).groupBy(Car.MANUFACTURER).sum(Car.PRICE);
                        if (!stop.get()) {
                            groupBys.incrementAndGet();
                        }
                    }
                }, "group-by-" + t));
            }
            threads.forEach(Thread::start);
            long t0 = System.nanoTime();
            go.countDown();
            Thread.sleep(seconds * 1000L);
            stop.set(true);
            double elapsed = (System.nanoTime() - t0) / 1e9;
            for (Thread t : threads) {
                t.join();
            }
            int total = Arrays.stream(counts).sum();
            long[] all = new long[total];
            int at = 0;
            for (int t = 0; t < LOOKUP_THREADS; t++) {
                System.arraycopy(latencies.get(t), 0, all, at, counts[t]);
                at += counts[t];
            }
            Arrays.sort(all);
            return new Run(all[(int) (total * 0.50)] / 1000, all[(int) Math.min(total - 1, total * 0.99)] / 1000,
                    total / elapsed, groupBys.get() / elapsed);
        }
    }

    private static String label(int limit) {
        return limit == ALONE ? "lookups alone" : limit == 0 ? "none" : Integer.toString(limit);
    }

    private static void await(CountDownLatch go) {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static double medianOf(List<Run> runs, java.util.function.ToDoubleFunction<Run> f) {
        double[] v = runs.stream().mapToDouble(f).sorted().toArray();
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }

    private static void write(StringBuilder md, Path out, Map<Integer, List<Run>> runs, int n, int seconds,
                              int rounds, long start) throws Exception {
        md.append("# Admission control: point lookups beside group-bys\n\n")
                .append(String.format(Locale.ROOT, "%,d cars (blob layout, DuckDBIndex on manufacturer and price) in "
                        + "one file. %d threads look up random keys (`retrieve(equal(carId, k))`, iterated) while %d "
                        + "threads run `from(cars).groupBy(manufacturer).sum(price)` back to back, for %d s per run. "
                        + "The configurations take turns, %d rounds, in one JVM; each row gives the median over rounds "
                        + "(every round's figure in brackets). Lookups by key do not wait for a turn. The row "
                        + "'lookups alone' runs the lookups without group-bys: no limit can bring the lookups' p99 "
                        + "below it.%n%n",
                        n, LOOKUP_THREADS, GROUP_BY_THREADS, seconds, rounds))
                .append(threads == null ? "" : "DuckDB's `threads` is set to " + threads + " in every configuration.\n\n")
                .append("| maxConcurrentQueries | lookup p50 µs | lookup p99 µs | lookups/s | group-bys/s "
                        + "| p99 ÷ no limit | group-bys ÷ no limit |\n|---|--:|--:|--:|--:|--:|--:|\n");
        List<Run> none = runs.get(0);
        double p99None = medianOf(none, Run::p99);
        double gbNone = medianOf(none, Run::groupBysPerSecond);
        for (Map.Entry<Integer, List<Run>> e : runs.entrySet()) {
            List<Run> rs = e.getValue();
            double p99 = medianOf(rs, Run::p99);
            double gb = medianOf(rs, Run::groupBysPerSecond);
            md.append(String.format(Locale.ROOT, "| %s | %,.0f %s | %,.0f %s | %,.0f | %.2f %s | %.2f | %.2f |%n",
                    label(e.getKey()),
                    medianOf(rs, Run::p50), rs.stream().map(Run::p50).toList(),
                    p99, rs.stream().map(Run::p99).toList(),
                    medianOf(rs, Run::lookupsPerSecond),
                    gb, rs.stream().map(r -> String.format(Locale.ROOT, "%.2f", r.groupBysPerSecond())).toList(),
                    p99 / p99None, gb / gbNone));
        }
        md.append(String.format(Locale.ROOT, "%nTarget: with the best limit, lookup p99 ÷ no limit ≤ 0.5 with group-bys "
                + "÷ no limit ≥ 0.7; the lookups alone give %.2f.%n", medianOf(runs.get(ALONE), Run::p99) / p99None));
        ProbeReport.finish(md, start, out);
    }
}
