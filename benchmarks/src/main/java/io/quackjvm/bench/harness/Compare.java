package io.quackjvm.bench.harness;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The comparison harness: runs every configuration in its own forked JVM, one after another (never in parallel,
 * so they do not compete for the two cores), then writes results.json, results.csv, summary.md and chart.svg.
 *
 * <pre>
 *   java -cp ... io.quackjvm.bench.harness.Compare --mode tiny|quick|full
 *        [--configs a,b,c] [--objects N] [--out dir] [--scaling 500000,1000000] [--no-scaling] [--scaling-only]
 *        [--scaling-configs a,b,c] (default: on-heap, DiskPersistence, and the file configurations of both layouts,
 *        plain and with a covering price index)
 * </pre>
 * Exit code: 0 when every fork ran (n/a measurements and skipped configurations are fine), 1 when the harness
 * itself broke (a fork crashed, timed out or a measurement threw). There are no timing thresholds anywhere.
 */
public final class Compare {

    public static void main(String[] args) throws Exception {
        Mode mode = Mode.QUICK;
        List<String> names = null;
        Integer objects = null;
        Path out = null;
        List<Integer> scaling = null;
        boolean noScaling = false;
        boolean scalingOnly = false;
        List<String> scalingConfigs = List.of(Configs.ON_HEAP, Configs.DISK, Configs.QUACK_FILE, "quack-columnar-file",
                Configs.QUACK_FILE_COVERING, Configs.QUACK_COLUMNAR_FILE_COVERING);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--mode": mode = Mode.parse(args[++i]); break;
                case "--configs": names = Arrays.asList(args[++i].split(",")); break;
                case "--objects": objects = Integer.parseInt(args[++i].replace("_", "")); break;
                case "--out": out = Paths.get(args[++i]); break;
                case "--scaling": scaling = parseSizes(args[++i]); break;
                case "--no-scaling": noScaling = true; break;
                case "--scaling-only": scalingOnly = true; break;
                case "--scaling-configs": scalingConfigs = Arrays.asList(args[++i].split(",")); break;
                case "": break;
                default: throw new IllegalArgumentException("Unknown argument '" + args[i] + "'. Usage: --mode tiny|quick|full "
                        + "[--configs a,b] [--objects N] [--out dir] [--scaling 500000,1000000] [--no-scaling] [--scaling-only] [--scaling-configs a,b]");
            }
        }
        int n = objects == null ? mode.objects : objects;
        List<Configs.Config> configs = new ArrayList<>();
        if (names == null) {
            for (Configs.Config c : Configs.standard()) {
                // CI's tiny run keeps to one configuration per code path, to stay under a minute.
                if (mode != Mode.TINY || !Configs.TINY_SKIPS.contains(c.name)) {
                    configs.add(c);
                }
            }
        } else {
            for (String name : names) {
                configs.add(Configs.get(name.trim()));
            }
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path results = Paths.get("results");
        Path raw = results.resolve("raw").resolve(stamp + "-" + mode.name().toLowerCase());
        if (out == null) {
            // Committed results are results/current/ (written by Current) and results/archive/: a run of its own
            // goes under results/raw/, which git ignores.
            out = results.resolve("raw").resolve(mode.name().toLowerCase() + "-latest");
        }
        Files.createDirectories(raw);
        Files.createDirectories(out);
        System.out.println("quackjvm benchmark harness: mode=" + mode + " objects=" + n + " configs=" + configs.size()
                + " features (this JVM): " + Configs.libraryFeatures());
        System.out.println("raw output: " + raw.toAbsolutePath() + "   summary: " + out.toAbsolutePath());

        long started = System.nanoTime();
        boolean broken = false;
        List<Result> main = new ArrayList<>();
        for (Configs.Config c : scalingOnly ? List.<Configs.Config>of() : configs) {
            Result r = fork(c, mode, n, false, raw);
            main.add(r);
            broken |= !(r.status().equals("ok") || r.skipped());
        }

        List<Properties> interleaved = new ArrayList<>();
        if (!scalingOnly && names == null) {
            for (String storage : mode == Mode.TINY ? List.of("file") : List.of("file", "memory")) {
                Properties p = forkInterleaved(storage, mode, n, raw);
                interleaved.add(p);
                broken |= !"ok".equals(p.getProperty("status"));
            }
        }

        List<Result> scalingResults = new ArrayList<>();
        if (scaling == null && mode == Mode.FULL) {
            scaling = List.of(500_000, 1_000_000, 2_000_000, 4_000_000);
        }
        String scalingNote;
        if (noScaling || scaling == null) {
            scalingNote = noScaling ? "scaling runs disabled (--no-scaling)"
                    : "scaling runs only in full mode (or with --scaling sizes)";
        } else {
            scalingNote = "";
            for (int size : scaling) {
                for (String name : scalingConfigs) {
                    Result r = fork(Configs.get(name.trim()), mode, size, true, raw);
                    scalingResults.add(r);
                    broken |= !(r.status().equals("ok") || r.skipped());
                }
            }
        }

        double minutes = (System.nanoTime() - started) / 6e10;
        Report report = new Report(mode, n, main, scalingResults, scalingNote, minutes, interleaved);
        report.writeAll(out);
        report.writeAll(raw);
        System.out.printf("done in %.1f min; wrote %s%n", minutes, out.resolve("summary.md").toAbsolutePath());
        if (broken) {
            System.err.println("HARNESS FAILURE: at least one configuration crashed or a measurement threw; see the logs in " + raw);
            System.exit(1);
        }
    }

    private static List<Integer> parseSizes(String s) {
        List<Integer> sizes = new ArrayList<>();
        for (String part : s.split(",")) {
            sizes.add(Integer.parseInt(part.trim().replace("_", "")));
        }
        return sizes;
    }

    static Result fork(Configs.Config c, Mode mode, int n, boolean scaling, Path raw) throws IOException, InterruptedException {
        String tag = c.name + "-" + n + (scaling ? "-scaling" : "");
        Path props = raw.resolve(tag + ".properties");
        Path log = raw.resolve(tag + ".log");
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heapFor(mode, n));
        cmd.add("-XX:+UseG1GC");
        // Let G1 give memory back after System.gc(), so RSS after the load reflects what is live, not the heap
        // high-water mark of holding the N source objects during addAll (the same for every configuration).
        cmd.add("-XX:MinHeapFreeRatio=5");
        cmd.add("-XX:MaxHeapFreeRatio=10");
        cmd.addAll(c.jvmFlags);
        if (System.getProperty(Configs.DUCKDB_PROPERTIES) != null) {
            cmd.add("-D" + Configs.DUCKDB_PROPERTIES + "=" + System.getProperty(Configs.DUCKDB_PROPERTIES));
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Worker.class.getName());
        cmd.addAll(List.of("--config", c.name, "--mode", mode.name().toLowerCase(), "--objects", Integer.toString(n),
                "--out", props.toString()));
        if (scaling) {
            cmd.add("--scaling");
        }
        System.out.printf("%-22s n=%-9d ... ", c.name + (scaling ? " (scaling)" : ""), n);
        System.out.flush();
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        int rc;
        if (!p.waitFor(mode.forkTimeoutSeconds * (long) Math.max(1, n / mode.objects), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor();
            rc = -1;
            Files.writeString(log, "\nTIMED OUT after " + mode.forkTimeoutSeconds + " s\n",
                    java.nio.file.StandardOpenOption.APPEND);
        } else {
            rc = p.exitValue();
        }
        Properties pr = new Properties();
        if (Files.exists(props)) {
            try (InputStream in = Files.newInputStream(props)) {
                pr.load(in);
            }
        }
        Result r = new Result(c.name, n, pr, rc, log.toString());
        System.out.printf("%s in %.1f s%n", r.status() + (r.skipped() ? " (" + pr.getProperty("reason") + ")" : ""),
                (System.nanoTime() - t0) / 1e9);
        if (!(r.status().equals("ok") || r.skipped())) {
            List<String> lines = Files.readAllLines(log);
            System.out.println("---- last lines of " + log);
            lines.subList(Math.max(0, lines.size() - 30), lines.size()).forEach(System.out::println);
        }
        return r;
    }

    static Properties forkInterleaved(String storage, Mode mode, int n, Path raw) throws IOException, InterruptedException {
        Path props = raw.resolve("interleaved-" + storage + "-" + n + ".properties");
        Path log = raw.resolve("interleaved-" + storage + "-" + n + ".log");
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heapFor(mode, n));
        cmd.add("-XX:+UseG1GC");
        cmd.addAll(Configs.QUACK_FLAGS);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Interleaved.class.getName());
        cmd.addAll(List.of("--storage", storage, "--mode", mode.name().toLowerCase(), "--objects", Integer.toString(n),
                "--out", props.toString()));
        System.out.printf("%-22s n=%-9d ... ", "interleaved-" + storage, n);
        System.out.flush();
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(mode.forkTimeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor();
        }
        Properties pr = new Properties();
        if (Files.exists(props)) {
            try (InputStream in = Files.newInputStream(props)) {
                pr.load(in);
            }
        }
        pr.setProperty("storage", storage);
        System.out.printf("%s in %.1f s%n", pr.getProperty("status", "crashed"), (System.nanoTime() - t0) / 1e9);
        if (!"ok".equals(pr.getProperty("status"))) {
            List<String> lines = Files.readAllLines(log);
            lines.subList(Math.max(0, lines.size() - 30), lines.size()).forEach(System.out::println);
        }
        return pr;
    }

    static String heapFor(Mode mode, int n) {
        if (n >= 3_000_000) {
            return "12g";
        }
        if (n > mode.objects) {
            return "8g";
        }
        return mode.heap;
    }

    static String classpathEntries() {
        return String.join(File.pathSeparator, System.getProperty("java.class.path"));
    }
}
