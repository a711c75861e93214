package io.quackjvm.bench.harness;

import java.util.Arrays;

/** Repeats an operation under a time budget and keeps every sample (nanoseconds). */
public final class Timer {

    @FunctionalInterface
    public interface Op {
        void run(int iteration) throws Exception;
    }

    /** Sample statistics of one measurement, in nanoseconds. */
    public static final class Stats {
        public final long[] samples;

        public Stats(long[] samples) {
            this.samples = samples.clone();
            Arrays.sort(this.samples);
        }

        public int count() {
            return samples.length;
        }

        public double percentile(double p) {
            if (samples.length == 0) {
                return Double.NaN;
            }
            int i = (int) Math.ceil(p / 100.0 * samples.length) - 1;
            return samples[Math.max(0, Math.min(samples.length - 1, i))];
        }

        public double median() {
            int n = samples.length;
            if (n == 0) {
                return Double.NaN;
            }
            return n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2.0;
        }

        public double min() {
            return samples.length == 0 ? Double.NaN : samples[0];
        }
    }

    private Timer() {
    }

    /**
     * Runs {@code warmup} untimed iterations (stopping early after half the budget), then timed ones until both
     * {@code minReps} are done and the budget is spent, or {@code maxReps} are done.
     */
    public static Stats measure(int warmup, int minReps, int maxReps, long budgetMillis, Op op) throws Exception {
        long budget = budgetMillis * 1_000_000L;
        long start = System.nanoTime();
        int i = 0;
        for (; i < warmup && System.nanoTime() - start < budget / 2; i++) {
            op.run(i);
        }
        long[] samples = new long[Math.max(1, maxReps)];
        int n = 0;
        long timedStart = System.nanoTime();
        while (n < maxReps && (n < minReps || System.nanoTime() - timedStart < budget)) {
            long t0 = System.nanoTime();
            op.run(i++);
            samples[n++] = System.nanoTime() - t0;
        }
        return new Stats(Arrays.copyOf(samples, n));
    }

    /** One timed run. */
    public static long once(Op op) throws Exception {
        long t0 = System.nanoTime();
        op.run(0);
        return System.nanoTime() - t0;
    }
}
