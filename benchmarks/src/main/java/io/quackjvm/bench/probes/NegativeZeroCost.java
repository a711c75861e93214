package io.quackjvm.bench.probes;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static io.quackjvm.bench.probes.Checkout.median;
import static io.quackjvm.bench.probes.Checkout.round1;

/**
 * What recording negative zeros costs a columnar collection of doubles that holds none: two built checkouts in one
 * JVM, each in a class loader of its own over the same third-party jars (as {@link TwoBuilds}), every sample of one
 * taken next to a sample of the other, the order alternating, in wall time and in the process's CPU time. Per round and build: {@code addAll} of fresh objects
 * into a fresh file (the Appender), single {@code add}s of new keys, and a full read of every object through the
 * default readers (Arrow when present) and through the JDBC reader alone, each on a file reopened after a
 * checkpoint. Prints medians and the ratio b ÷ a.
 *
 * <p>Run it on a classpath of the benchmark classes and the third-party jars only, without quackjvm's modules:
 * {@code java -cp <classpath> io.quackjvm.bench.probes.NegativeZeroCost --a DIR --b DIR [--objects N]
 * [--rounds N] [--adds N] [--out file.md]}, where each DIR is a built checkout (its modules' target/classes).
 */
public final class NegativeZeroCost {

    /** Five floating fields, none of them ever -0.0 (some +0.0), and a key. */
    public record Sample(int id, double price, double weight, double ratio, Double maybe, float score) {
        public static final SimpleAttribute<Sample, Integer> ID = new SimpleAttribute<>(Sample.class, Integer.class,
                "id") {
            @Override
            public Integer getValue(Sample s, QueryOptions q) {
                return s.id;
            }
        };
    }

    private static final List<String> MODULES = List.of("quackjvm", "quackjvm-api", "quackjvm-storage",
            "quackjvm-reader-jdbc", "quackjvm-reader-arrow", "quackjvm-concurrency", "quackjvm-index");

    static List<Sample> samples(int from, int count) {
        SplittableRandom r = new SplittableRandom(42 + from);
        List<Sample> out = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            double price = r.nextInt(10) == 0 ? 0.0 : Math.round(r.nextDouble() * 100_000) / 100.0;
            out.add(new Sample(i, price, r.nextDouble() * 1e3, r.nextGaussian(), r.nextInt(5) == 0 ? null
                    : (double) r.nextInt(1000), (float) r.nextDouble()));
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        Checkout.Comparison run = new Checkout.Comparison(args,
                Map.of("--objects", 200_000, "--rounds", 7, "--adds", 2_000), MODULES, "quackjvm-negative-zero-cost-",
                "Negative-zero record: cost on doubles without -0.0, two builds in one JVM");
        int objects = run.number("--objects");
        int rounds = run.number("--rounds");
        int adds = run.number("--adds");
        run.report.append("\n- ").append(objects).append(" objects per load, ").append(adds).append(" single adds, ")
                .append(rounds).append(" rounds (plus one warm-up round, not counted)\n\n");

        List<Sample> load = samples(0, objects);
        List<Sample> extra = samples(objects, adds);
        double[][] loadMs = new double[2][rounds];
        double[][] addUs = new double[2][rounds];
        double[][] readArrowMs = new double[2][rounds];
        double[][] readJdbcMs = new double[2][rounds];
        // The process's CPU time (every thread, DuckDB's included) over the same spans: less swayed than wall time
        // by the other work on a shared machine.
        double[][] loadCpuMs = new double[2][rounds];
        double[][] addCpuUs = new double[2][rounds];
        double[][] readArrowCpuMs = new double[2][rounds];
        double[][] readJdbcCpuMs = new double[2][rounds];
        for (int round = -1; round < rounds; round++) {
            for (int k = 0; k < 2; k++) {
                int side = (round + 1 + k) % 2;
                Checkout build = run.builds[side];
                Path file = run.dir.resolve("cost-" + build.name + "-" + round + ".duckdb");
                try (Checkout.Opened<Sample> o = open(build, file, false)) {
                    long c0 = cpu();
                    long t0 = System.nanoTime();
                    o.collection.addAll(load);
                    double ms = (System.nanoTime() - t0) / 1e6;
                    double cpuMs = (cpu() - c0) / 1e6;
                    long c1 = cpu();
                    long t1 = System.nanoTime();
                    for (Sample s : extra) {
                        o.collection.add(s);
                    }
                    double us = (System.nanoTime() - t1) / 1e3 / adds;
                    double cpuUs = (cpu() - c1) / 1e3 / adds;
                    if (round >= 0) {
                        loadMs[side][round] = ms;
                        addUs[side][round] = us;
                        loadCpuMs[side][round] = cpuMs;
                        addCpuUs[side][round] = cpuUs;
                    }
                }
                for (boolean jdbcOnly : new boolean[] {false, true}) {
                    try (Checkout.Opened<Sample> o = open(build, file, jdbcOnly)) {
                        long c0 = cpu();
                        long t0 = System.nanoTime();
                        double sum = 0;
                        int n = 0;
                        for (Sample s : o.collection) {
                            sum += s.price();
                            n++;
                        }
                        double ms = (System.nanoTime() - t0) / 1e6;
                        double cpuMs = (cpu() - c0) / 1e6;
                        if (n != objects + adds || Double.isNaN(sum)) {
                            throw new IllegalStateException(build.name + " read " + n + " objects");
                        }
                        if (round >= 0) {
                            (jdbcOnly ? readJdbcMs : readArrowMs)[side][round] = ms;
                            (jdbcOnly ? readJdbcCpuMs : readArrowCpuMs)[side][round] = cpuMs;
                        }
                    }
                }
                Files.deleteIfExists(file);
            }
        }
        StringBuilder report = run.report;
        report.append("| measure | a | b | b ÷ a |\n|---|--:|--:|--:|\n");
        row(report, "addAll of " + objects + " into a fresh file, ms (median)", median(loadMs[0]), median(loadMs[1]));
        row(report, "addAll, objects/s (median)", objects / median(loadMs[0]) * 1e3,
                objects / median(loadMs[1]) * 1e3);
        row(report, "single add, µs per add (median of the rounds' means)", median(addUs[0]), median(addUs[1]));
        row(report, "full read, Arrow reader, ms (median)", median(readArrowMs[0]), median(readArrowMs[1]));
        row(report, "full read, JDBC reader only, ms (median)", median(readJdbcMs[0]), median(readJdbcMs[1]));
        row(report, "addAll, process CPU ms (median)", median(loadCpuMs[0]), median(loadCpuMs[1]));
        row(report, "single add, process CPU µs per add (median)", median(addCpuUs[0]), median(addCpuUs[1]));
        row(report, "full read, Arrow reader, process CPU ms (median)", median(readArrowCpuMs[0]),
                median(readArrowCpuMs[1]));
        row(report, "full read, JDBC reader only, process CPU ms (median)", median(readJdbcCpuMs[0]),
                median(readJdbcCpuMs[1]));
        report.append("\nEach round (a / b):\n\n");
        each(report, "addAll ms", loadMs);
        each(report, "single add µs", addUs);
        each(report, "read Arrow ms", readArrowMs);
        each(report, "read JDBC ms", readJdbcMs);
        each(report, "addAll CPU ms", loadCpuMs);
        each(report, "single add CPU µs", addCpuUs);
        each(report, "read Arrow CPU ms", readArrowCpuMs);
        each(report, "read JDBC CPU ms", readJdbcCpuMs);
        run.finish();
    }

    /**
     * {@code DuckDBPersistence.builder(Sample.ID).file(file).columnarLayout(ColumnarLayout.ofRecord(Sample.class))}
     * of {@code build}, with the JDBC reader alone when {@code jdbcOnly}.
     */
    private static Checkout.Opened<Sample> open(Checkout build, Path file, boolean jdbcOnly) throws Exception {
        return build.open(Sample.ID, file, (b, builder) -> {
            Class<?> layoutType = b.type("io.quackjvm.api.ColumnarLayout");
            Object layout = layoutType.getMethod("ofRecord", Class.class).invoke(null, Sample.class);
            builder.getClass().getMethod("columnarLayout", layoutType).invoke(builder, layout);
            if (jdbcOnly) {
                Class<?> provider = b.type("io.quackjvm.api.spi.ResultReaderProvider");
                Object jdbc = b.type("io.quackjvm.reader.jdbc.JdbcReaderProvider").getConstructor().newInstance();
                Object providers = Array.newInstance(provider, 1);
                Array.set(providers, 0, jdbc);
                builder.getClass().getMethod("resultReaders", providers.getClass()).invoke(builder, providers);
            }
        });
    }

    private static void row(StringBuilder r, String what, double a, double b) {
        r.append("| ").append(what).append(" | ").append(String.format("%.1f", a)).append(" | ")
                .append(String.format("%.1f", b)).append(" | ").append(String.format("%.3f", b / a)).append(" |\n");
    }

    private static void each(StringBuilder r, String what, double[][] values) {
        r.append("- ").append(what).append(": ").append(Arrays.toString(round1(values[0]))).append(" / ")
                .append(Arrays.toString(round1(values[1]))).append('\n');
    }

    /** The CPU time of the whole process (all its threads), in ns. */
    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private NegativeZeroCost() {
    }
}
