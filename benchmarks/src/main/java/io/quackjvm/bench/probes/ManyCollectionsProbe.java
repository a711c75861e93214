package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.persistence.offheap.OffHeapPersistence;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.harness.CarCodec;
import io.quackjvm.bench.harness.Timer;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Many small collections, as CQEngine users and their tests make them. Two parts, in one JVM:
 * <ul>
 *   <li><b>open, add one, close</b>: a new collection with one car added, then closed, for each subject in
 *       turn (every round in a new shuffled order), so a busy machine slows all of them alike:
 *       quackjvm in memory with every setting at its default (a catalog of the process's shared DuckDB instance),
 *       quackjvm in memory with a {@code memoryLimit} (a DuckDB instance of its own), CQEngine
 *       {@code OffHeapPersistence} (SQLite in memory), CQEngine on the heap, and raw DuckDB JDBC (a new instance,
 *       {@code CREATE TABLE} with a primary key, one prepared {@code INSERT} of the serialised car, closed);
 *       medians, 90th percentiles and ratios to OffHeapPersistence and to raw DuckDB;</li>
 *   <li><b>1,000 left open</b>: threads of the process ({@code /proc/self/task}, native ones included), resident
 *       memory and heap before, with 1,000 collections of one car each open and never closed, and after dropping
 *       them and asking for garbage collections until the threads stop falling (at most 30 s): quackjvm at its
 *       defaults (1,000, and 285 as CQEngine's Set-conformance suite leaves behind), OffHeapPersistence, and
 *       quackjvm with a memory limit (an instance each; {@code own} of them).</li>
 * </ul>
 * Arguments: samples (default 300), collections left open (default 1,000), own-instance collections left open
 * (default 100), an output file (default {@code results/raw/many-collections/run.md}). Run with
 * {@code --add-opens=java.base/java.util=ALL-UNNAMED} (OffHeapPersistence's Kryo).
 */
public final class ManyCollectionsProbe {

    private interface Cycle {
        void run(int id) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int samples = ProbeReport.intArg(args, 0, 300);
        int open = ProbeReport.intArg(args, 1, 1_000);
        int own = ProbeReport.intArg(args, 2, 100);
        Path out = Paths.get(ProbeReport.arg(args, 3, "results/raw/many-collections/run.md"));
        StringBuilder md = ProbeReport.generatedBy(ManyCollectionsProbe.class, samples, open, own)
                .append("; ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores; load average ").append(Worker.loadAverage()).append(" at the start");
        long t0 = System.nanoTime();
        cycles(md, samples);
        leftOpen(md, open, own);
        ProbeReport.finish(md, t0, out);
        System.exit(0);
    }

    private static void cycles(StringBuilder md, int samples) throws Exception {
        CarCodec codec = new CarCodec();
        Map<String, Cycle> subjects = new LinkedHashMap<>();
        subjects.put("quackjvm in memory, defaults (shared instance)", id -> {
            try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID)) {
                new ConcurrentIndexedCollection<>(p).add(CarGenerator.car(id));
            }
        });
        subjects.put("quackjvm in memory, memoryLimit(\"256MB\") (instance of its own)", id -> {
            try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("256MB")
                    .build()) {
                new ConcurrentIndexedCollection<>(p).add(CarGenerator.car(id));
            }
        });
        subjects.put("CQEngine OffHeapPersistence", id -> {
            OffHeapPersistence<Car, Integer> p = OffHeapPersistence.onPrimaryKey(Car.CAR_ID);
            new ConcurrentIndexedCollection<>(p).add(CarGenerator.car(id));
            p.close();
        });
        subjects.put("CQEngine on-heap", id -> new ConcurrentIndexedCollection<Car>().add(CarGenerator.car(id)));
        subjects.put("raw DuckDB JDBC: new instance, CREATE TABLE, INSERT, close", id -> {
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE car (_key INTEGER PRIMARY KEY, object BLOB)");
                try (PreparedStatement p = c.prepareStatement("INSERT INTO car VALUES (?, ?)")) {
                    p.setInt(1, id);
                    p.setBytes(2, codec.serialize(CarGenerator.car(id)));
                    p.executeUpdate();
                }
            }
        });
        List<String> names = new ArrayList<>(subjects.keySet());
        List<Cycle> runs = new ArrayList<>(subjects.values());
        long[][] t = new long[names.size()][samples];
        // CPU time of the calling thread too (nanosecond clock): what other processes on a busy machine do not
        // inflate; DuckDB's worker threads and the JVM's own are not in it
        long[][] c = new long[names.size()][samples];
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        int warm = Math.max(20, samples / 10);
        // Each round runs every subject once, in an order shuffled anew (seeded): a subject is not always run
        // right after the same other one (after an instance's close, say, whose threads are still ending).
        java.util.Random shuffle = new java.util.Random(42);
        List<Integer> order = new ArrayList<>();
        for (int j = 0; j < runs.size(); j++) {
            order.add(j);
        }
        for (int i = 0; i < warm + samples; i++) {
            java.util.Collections.shuffle(order, shuffle);
            for (int j = 0; j < runs.size(); j++) {
                int s = order.get(j);
                long ca = cpu.getCurrentThreadCpuTime();
                long a = System.nanoTime();
                runs.get(s).run(i * runs.size() + j);
                long d = System.nanoTime() - a;
                long cd = cpu.getCurrentThreadCpuTime() - ca;
                if (i >= warm) {
                    t[s][i - warm] = d;
                    c[s][i - warm] = cd;
                }
            }
        }
        double offHeap = new Timer.Stats(t[names.indexOf("CQEngine OffHeapPersistence")]).median();
        double raw = new Timer.Stats(t[names.size() - 1]).median();
        double offHeapCpu = new Timer.Stats(c[names.indexOf("CQEngine OffHeapPersistence")]).median();
        md.append("\n\n## Open, add one car, close: ").append(samples).append(" interleaved samples after ")
                .append(warm).append(" warm-up rounds\n\n")
                .append("| subject | p50 ms | p90 ms | ÷ OffHeapPersistence | ÷ raw DuckDB | p50 CPU ms (calling thread) "
                        + "| CPU ÷ OffHeapPersistence |\n|---|--:|--:|--:|--:|--:|--:|\n");
        for (int s = 0; s < names.size(); s++) {
            Timer.Stats st = new Timer.Stats(t[s]);
            Timer.Stats ct = new Timer.Stats(c[s]);
            md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f× | %.2f× | %.2f | %.2f× |%n", names.get(s),
                    st.median() / 1e6, st.percentile(90) / 1e6, st.median() / offHeap, st.median() / raw,
                    ct.median() / 1e6, ct.median() / offHeapCpu));
        }
    }

    /** Threads of the process, native ones included; -1 without /proc. */
    static int threads() {
        String[] tasks = new File("/proc/self/task").list();
        return tasks == null ? -1 : tasks.length;
    }

    private static double heapMb() {
        Runtime r = Runtime.getRuntime();
        return (r.totalMemory() - r.freeMemory()) / 1e6;
    }

    /** RSS after two collections and a short wait for it to settle. */
    private static double settledRss() throws InterruptedException {
        System.gc();
        Thread.sleep(100);
        System.gc();
        return Worker.settledRssMb(12);
    }

    private static void leftOpen(StringBuilder md, int open, int own) throws Exception {
        md.append("\n\n## Collections left open (never closed), one car each\n\n")
                .append("Threads: `/proc/self/task` (DuckDB's workers are native threads). RSS after a collection and ")
                .append("a wait for it to settle. \"Dropped\": the collections made unreachable, then garbage ")
                .append("collections asked for (System.gc(), as a test would) until the thread count stopped ")
                .append("falling, at most 30 s.\n\n")
                .append("| subject | collections | threads before | threads open | threads dropped | RSS MB before | ")
                .append("RSS MB open | RSS MB dropped | heap MB open | ms per open | s until released |\n")
                .append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        scenario(md, "quackjvm in memory, defaults (shared instance)", open, id -> {
            DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
            IndexedCollection<Car> c = new ConcurrentIndexedCollection<>(p);
            c.add(CarGenerator.car(id));
            return c;
        });
        // what CQEngine's Set-conformance suite leaves behind: 285 collections, never closed
        scenario(md, "quackjvm in memory, defaults (shared instance)", 285, id -> {
            DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKey(Car.CAR_ID);
            IndexedCollection<Car> c = new ConcurrentIndexedCollection<>(p);
            c.add(CarGenerator.car(id));
            return c;
        });
        scenario(md, "CQEngine OffHeapPersistence", open, id -> {
            IndexedCollection<Car> c = new ConcurrentIndexedCollection<>(OffHeapPersistence.onPrimaryKey(Car.CAR_ID));
            c.add(CarGenerator.car(id));
            return c;
        });
        scenario(md, "quackjvm in memory, memoryLimit(\"256MB\") (instance of its own)", own, id -> {
            DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("256MB").build();
            IndexedCollection<Car> c = new ConcurrentIndexedCollection<>(p);
            c.add(CarGenerator.car(id));
            return c;
        });
    }

    private static void scenario(StringBuilder md, String name, int n, IntFunction<Object> make) throws Exception {
        double rssBefore = settledRss();
        int threadsBefore = threads();
        List<Object> kept = new ArrayList<>(n);
        long a = System.nanoTime();
        for (int i = 0; i < n; i++) {
            kept.add(make.apply(i));
        }
        double msEach = (System.nanoTime() - a) / 1e6 / n;
        int threadsOpen = threads();
        double rssOpen = settledRss();
        double heapOpen = heapMb();
        kept.clear();
        kept = null;
        long dropped = System.nanoTime();
        int last = threads();
        long lastChange = System.nanoTime();
        while (System.nanoTime() - dropped < 30e9) {
            System.gc();
            Thread.sleep(100);
            int now = threads();
            if (now != last) {
                last = now;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > 2e9) {
                break;
            }
        }
        double releasedSeconds = (lastChange - dropped) / 1e9;
        double rssDropped = settledRss();
        md.append(String.format(Locale.ROOT, "| %s | %,d | %d | %d | %d | %.0f | %.0f | %.0f | %.0f | %.2f | %.1f |%n",
                name, n, threadsBefore, threadsOpen, threads(), rssBefore, rssOpen, rssDropped, heapOpen, msEach,
                releasedSeconds));
        System.out.println(md.substring(md.lastIndexOf("\n", md.length() - 2) + 1));
    }

    private ManyCollectionsProbe() {
    }
}
