package io.quackjvm.bench.probes;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.bench.harness.Stamp;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code DuckDBDatabase.snapshot} costs, and how long it makes writers wait. A file database of N benchmark
 * cars (blob layout, primary key plus a {@code DuckDBIndex} on the manufacturer) is written once; then, round by
 * round in this JVM:
 * <ul>
 *   <li>{@code file copy}: the closed file copied with {@code Files.copy} (what a backup costs without this
 *       feature, with the application stopped), and the same copy made durable with an fsync, as a snapshot
 *       is;</li>
 *   <li>{@code snapshot}: the database open, one thread adding single cars without pause, and
 *       {@code snapshot(target)} taken meanwhile; the longest single add while the snapshot ran is the writers'
 *       wait. The same writer's longest add over the same length of time without a snapshot is reported beside it,
 *       so that the wait the snapshot adds can be told from the machine's own noise.</li>
 * </ul>
 * Targets: snapshot ÷ file copy ≤ 2 (medians; reported against both copies), longest write during a snapshot
 * ≤ 100 ms. Every snapshot is opened afterwards and its count checked against what was acknowledged before it
 * began.
 *
 * <p>Arguments: N (default 1,000,000), rounds (default 5), {@code --out FILE} (default
 * {@code results/raw/snapshot/run.md}), for example from the repository root:
 * {@code mvn -B -pl benchmarks -am -DskipTests verify -Dbench="run io.quackjvm.bench.probes.SnapshotProbe 1000000 5"}.
 */
public final class SnapshotProbe {

    private SnapshotProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeReport.Args parsed = ProbeReport.Args.parse(args, "results/raw/snapshot/run.md");
        Path out = parsed.out();
        String[] pos = parsed.positional();
        int n = ProbeReport.intArg(pos, 0, 1_000_000);
        int rounds = ProbeReport.intArg(pos, 1, 5);
        long t0 = System.nanoTime();
        StringBuilder md = ProbeReport.stamped(SnapshotProbe.class, n, rounds);

        Path work = Files.createTempDirectory("snapshot-probe");
        Path file = work.resolve("cars.duckdb");
        long w0 = System.nanoTime();
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).memoryLimit("1GB").build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            try (DuckDBBulkWriter<Car> writer = db.bulkWriter(cars)) {
                for (int from = 0; from < n; from += 100_000) {
                    writer.addAll(CarGenerator.cars(from, Math.min(100_000, n - from)));
                }
                writer.commit();
            }
            db.optimize();
        }
        md.append(String.format(Locale.ROOT, "Database file of %,d cars: %,d bytes, written in %,d ms.%n%n", n,
                Files.size(file), (System.nanoTime() - w0) / 1_000_000));

        List<Long> copies = new ArrayList<>();
        List<Long> durableCopies = new ArrayList<>();
        List<Long> snapshots = new ArrayList<>();
        List<Long> waits = new ArrayList<>();
        List<Long> quietWaits = new ArrayList<>();
        int nextId = n;
        for (int r = 0; r <= rounds; r++) {          // round 0 warms up and is not reported
            Path copy = work.resolve("copy.duckdb");
            long s = System.nanoTime();
            Files.copy(file, copy);
            long copyMs = (System.nanoTime() - s) / 1_000_000;
            Files.delete(copy);
            s = System.nanoTime();
            Files.copy(file, copy);
            try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            long durableMs = (System.nanoTime() - s) / 1_000_000;
            Files.delete(copy);

            Path snap = work.resolve("snap.duckdb");
            long snapMs;
            long wait;
            long quiet;
            long ackedBefore;
            try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).memoryLimit("1GB").build()) {
                IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
                cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
                Writer writer = new Writer(cars, nextId);
                writer.start();
                writer.awaitWrites(50);
                s = System.nanoTime();
                writer.resetLongest();
                ackedBefore = cars.size();
                db.snapshot(snap);
                snapMs = (System.nanoTime() - s) / 1_000_000;
                wait = writer.resetLongest();
                Thread.sleep(Math.max(1, snapMs));   // the same writer, as long again, without a snapshot
                quiet = writer.resetLongest();
                nextId = writer.stopAndJoin();
            }
            long stored;
            try (DuckDBDatabase db = DuckDBDatabase.builder().file(snap).readOnly().build()) {
                stored = db.collection(Car.CAR_ID).name("car").build().size();
            }
            Files.delete(snap);
            if (stored < ackedBefore || stored > nextId) {
                throw new IllegalStateException("snapshot holds " + stored + " cars; " + ackedBefore
                        + " were committed before it");
            }
            System.err.printf(Locale.ROOT, "round %d copy %,d ms, snapshot %,d ms, longest write %,d ms "
                    + "(without snapshot %,d ms) (load avg %s)%n", r, copyMs, snapMs, wait, quiet, Worker.loadAverage());
            if (r > 0) {
                copies.add(copyMs);
                durableCopies.add(durableMs);
                snapshots.add(snapMs);
                waits.add(wait);
                quietWaits.add(quiet);
            }
        }
        ProbeReport.delete(work);
        md.append("| measure | median ms | rounds ms |\n|---|--:|---|\n");
        ProbeReport.row(md, "file copy (closed)", copies);
        ProbeReport.row(md, "file copy (closed), then fsync", durableCopies);
        ProbeReport.row(md, "snapshot (open, writer running)", snapshots);
        ProbeReport.row(md, "longest single add during the snapshot", waits);
        ProbeReport.row(md, "longest single add, same time, no snapshot", quietWaits);
        double ratio = (double) ProbeReport.median(snapshots) / Math.max(1, ProbeReport.median(copies));
        long longest = waits.stream().mapToLong(Long::longValue).max().orElse(0);
        double durable = (double) ProbeReport.median(snapshots) / Math.max(1, ProbeReport.median(durableCopies));
        md.append(String.format(Locale.ROOT, "%nsnapshot ÷ file copy = %.2f (target ≤ 2: %s)%n", ratio,
                ratio <= 2 ? "met" : "not met"));
        md.append(String.format(Locale.ROOT, "snapshot ÷ file copy then fsync = %.2f (a snapshot is durable when it "
                + "returns: target ≤ 2: %s)%n", durable, durable <= 2 ? "met" : "not met"));
        md.append(String.format(Locale.ROOT, "longest write wait during a snapshot, over every round = %,d ms "
                + "(target ≤ 100 ms: %s)%n", longest, longest <= 100 ? "met" : "not met"));
        ProbeReport.finish(md, t0, out);
        System.exit(0);
    }

    /** Adds single cars with rising ids until stopped, keeping the longest add since the last reset. */
    private static final class Writer extends Thread {
        private final IndexedCollection<Car> cars;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicLong longestNanos = new AtomicLong();
        private final AtomicLong writes = new AtomicLong();
        private volatile int next;
        private volatile Throwable failure;

        Writer(IndexedCollection<Car> cars, int firstId) {
            super("snapshot-probe-writer");
            this.cars = cars;
            this.next = firstId;
        }

        @Override
        public void run() {
            try {
                while (!stop.get()) {
                    Car car = CarGenerator.car(next);
                    long s = System.nanoTime();
                    cars.add(car);
                    longestNanos.accumulateAndGet(System.nanoTime() - s, Math::max);
                    next++;
                    writes.incrementAndGet();
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        void awaitWrites(long count) throws InterruptedException {
            while (writes.get() < count && failure == null) {
                Thread.sleep(1);
            }
        }

        /** The longest add, in ms, since the previous call. */
        long resetLongest() {
            return longestNanos.getAndSet(0) / 1_000_000;
        }

        int stopAndJoin() throws InterruptedException {
            stop.set(true);
            join();
            if (failure != null) {
                throw new IllegalStateException("the writer failed", failure);
            }
            return next;
        }
    }
}
