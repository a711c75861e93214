package io.quackjvm.bench.probes;

import io.quackjvm.bench.harness.Configs;
import io.quackjvm.bench.harness.Subject;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Resident memory of one harness configuration, phase by phase, in this JVM: empty, after the load (the source
 * list dropped), after {@code optimize()} (where the persistence has one), after reads (1,000 key lookups and one
 * iteration of everything). Prints one Markdown table row. Run one JVM per configuration, with the harness's
 * flags: {@code java -Xmx6g -XX:+UseG1GC -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=10 ... MemoryPhases
 * quack-file-256mb 1000000}. RSS is VmRSS after System.gc(), read until it settles.
 */
public final class MemoryPhases {

    private MemoryPhases() {
    }

    public static void main(String[] args) throws Exception {
        String config = args[0];
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        Path dir = Files.createTempDirectory("quackjvm-memory-phases-");
        Subject subject = Configs.get(config).factory.create(dir);
        try {
            double empty = settle();
            List<Car> cars = CarGenerator.cars(0, n);
            subject.load(cars);
            cars = null;
            double load = settle();
            long t0 = System.nanoTime();
            boolean optimized = subject.optimize();
            double optimizeMs = (System.nanoTime() - t0) / 1e6;
            double opt = settle();
            SplittableRandom r = new SplittableRandom(1);
            for (int i = 0; i < 1_000; i++) {
                int k = r.nextInt(n);
                if (subject.lookup(k) == null) {
                    throw new IllegalStateException("missing " + k);
                }
            }
            if (subject.iterateAll() != n) {
                throw new IllegalStateException("iteration lost objects");
            }
            double reads = settle();
            double committed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() / 1e6;
            System.out.println(String.format(Locale.ROOT, "| `%s` | %,d | %.0f | %.0f | %s | %.0f | %.0f | %s |",
                    config, n, empty, load, optimized ? String.format(Locale.ROOT, "%.0f", opt) : "– (" + String.format(Locale.ROOT, "%.0f", opt) + ")",
                    reads, committed, optimized ? String.format(Locale.ROOT, "optimize() %.0f ms", optimizeMs) : "no optimize()"));
        } finally {
            subject.close();
            Worker.deleteRecursively(dir);
        }
        System.exit(0);
    }

    /** System.gc() twice, then VmRSS read until it changes by less than 1% (at most 5 s). */
    private static double settle() throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return Worker.settledRssMb(20);
    }
}
