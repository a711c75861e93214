package io.quackjvm.bench.probes;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.bench.harness.Timer;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;
import io.quackjvm.micrometer.QuackMetrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * What binding {@link QuackMetrics} costs: two in-memory databases with the same collection of N cars (blob layout,
 * primary key, no object cache), one bound to a {@code PrometheusMeterRegistry} and one not. Each sample does a
 * point lookup on both, then an add of a new car on both, the order of the two alternating from sample to sample so
 * a busy machine slows both alike. Reports the medians per round and the ratio of the medians (bound ÷ unbound),
 * and the median of the rounds' ratios.
 *
 * <p>Arguments: {@code N} (default 100,000), samples per round (default 2,000), rounds (default 5), {@code --out}.
 */
public final class MetricsCostProbe {

    private MetricsCostProbe() {
    }

    public static void main(String[] argv) throws Exception {
        ProbeReport.Args a = ProbeReport.Args.parse(argv, "benchmarks/results/current/metrics-cost.md");
        String[] args = a.positional();
        int n = ProbeReport.intArg(args, 0, 100_000);
        int samples = ProbeReport.intArg(args, 1, 2_000);
        int rounds = ProbeReport.intArg(args, 2, 5);
        long start = System.nanoTime();
        StringBuilder md = ProbeReport.stamped(MetricsCostProbe.class, n, samples, rounds);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (DuckDBDatabase plain = DuckDBDatabase.builder().build();
             DuckDBDatabase measured = DuckDBDatabase.builder().build();
             QuackMetrics metrics = new QuackMetrics(measured)) {
            List<Car> cars = CarGenerator.cars(0, n);
            IndexedCollection<Car> off = plain.collection(Car.CAR_ID).name("car").build();
            IndexedCollection<Car> on = measured.collection(Car.CAR_ID).name("car").build();
            off.addAll(cars);
            on.addAll(cars);
            metrics.bindTo(registry);
            List<double[]> lookups = new ArrayList<>();   // per round: unbound median, bound median (µs)
            List<double[]> adds = new ArrayList<>();
            Random random = new Random(42);
            int next = n;
            for (int round = -1; round < rounds; round++) {   // round -1 warms up
                long[][] lookup = new long[2][samples];
                long[][] add = new long[2][samples];
                for (int i = 0; i < samples; i++) {
                    int key = random.nextInt(n);
                    Car car = CarGenerator.car(next++);
                    for (int k = 0; k < 2; k++) {
                        int side = (i + k) % 2;
                        IndexedCollection<Car> c = side == 0 ? off : on;
                        long t = System.nanoTime();
                        try (ResultSet<Car> rs = c.retrieve(equal(Car.CAR_ID, key))) {
                            if (rs.stream().count() != 1) {
                                throw new IllegalStateException("car " + key + " not found");
                            }
                        }
                        lookup[side][i] = System.nanoTime() - t;
                    }
                    for (int k = 0; k < 2; k++) {
                        int side = (i + k) % 2;
                        IndexedCollection<Car> c = side == 0 ? off : on;
                        long t = System.nanoTime();
                        c.add(car);
                        add[side][i] = System.nanoTime() - t;
                    }
                }
                if (round >= 0) {
                    lookups.add(new double[]{new Timer.Stats(lookup[0]).median() / 1e3,
                            new Timer.Stats(lookup[1]).median() / 1e3});
                    adds.add(new double[]{new Timer.Stats(add[0]).median() / 1e3,
                            new Timer.Stats(add[1]).median() / 1e3});
                }
            }
            long recorded = registry.find("quackjvm.operations").timers().stream().mapToLong(t -> t.count()).sum();
            long expected = 2L * samples * (rounds + 1);
            if (recorded != expected) {
                throw new IllegalStateException("the bound database recorded " + recorded + " operations, not "
                        + expected);
            }
            md.append("# The cost of Micrometer metrics on point lookups and single adds\n\n")
                    .append(String.format(Locale.ROOT, "Two in-memory databases with %,d cars each (blob layout, "
                            + "primary key, no object cache); one bound to a `PrometheusMeterRegistry` through "
                            + "`QuackMetrics`. Each sample: a lookup by key on both, then an add of a new car on "
                            + "both, the order alternating; %,d samples per round, %d rounds after a warm-up round. "
                            + "Medians in µs. The bound database's timers counted %,d operations, as many as it "
                            + "served.%n%n", n, samples, rounds, recorded));
            double lookupRatio = table(md, "point lookup by key", lookups);
            double addRatio = table(md, "add of one new car", adds);
            md.append(String.format(Locale.ROOT, "Median of the rounds' ratios, bound ÷ unbound: point lookups "
                            + "%.3f, single adds %.3f (target ≤ 1.03: %s).%n", lookupRatio, addRatio,
                    lookupRatio <= 1.03 && addRatio <= 1.03 ? "met" : "not met"));
        } finally {
            registry.close();
        }
        ProbeReport.finish(md, start, a.out());
        System.exit(0);
    }

    /** Writes one measure's rounds; returns the median of their ratios. */
    private static double table(StringBuilder md, String name, List<double[]> rounds) {
        md.append("| ").append(name).append(": round | unbound | bound | bound ÷ unbound |\n|--:|--:|--:|--:|\n");
        double[] ratios = new double[rounds.size()];
        for (int r = 0; r < rounds.size(); r++) {
            double[] m = rounds.get(r);
            ratios[r] = m[1] / m[0];
            md.append(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.3f |%n", r + 1, m[0], m[1], ratios[r]));
        }
        md.append('\n');
        java.util.Arrays.sort(ratios);
        return ratios[ratios.length / 2];
    }
}
