package io.quackjvm.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The one command behind {@code benchmarks/results/current/}: the comparison against CQEngine (each configuration
 * in its own JVM, {@link Compare}), the interleaved rounds ({@link Rounds}) and every probe that backs a figure in
 * the README or {@code docs/}, one JVM each, in sequence; every output file stamped ({@link Stamp}); an index
 * ({@code README.md}); and the headline tables of the README and {@code docs/benchmarks.md} written from the
 * result ({@link Headline}).
 *
 * <pre>
 *   Current [standard|complete|tiny] [--only step,step] [--out DIR] [--no-docs]
 *   Current interleave ARGS | run MAIN ARGS | headline [--check]
 * </pre>
 * <ul>
 *   <li>{@code standard} (default): the comparison at 1M without its scaling runs, the interleaved rounds at 1M,
 *       and the probes that finish in minutes, at the sizes the docs quote;</li>
 *   <li>{@code complete}: also the scaling runs (500k to 4M) and the long probes (bulk loads, 20M rows, narrow
 *       ranges to 4M, JMH);</li>
 *   <li>{@code tiny} (CI): every step that has a tiny form, at 2k objects, into {@code results/raw/tiny-current/}
 *       (never the committed files); then checks that the docs' headline tables equal what {@link Headline}
 *       makes of the committed {@code current/};</li>
 *   <li>{@code interleave ARGS}: only {@link Rounds} with {@code ARGS} in a JVM of its own (the JVM flags it needs
 *       added), for example {@code interleave --mode full --builds before=/tmp/a,after=/tmp/b --out DIR};</li>
 *   <li>{@code run MAIN ARGS}: any main class of this module (a probe, {@link Compare}, JMH's) in a JVM of its own
 *       with those flags;</li>
 *   <li>{@code headline [--check]}: writes (or only compares) the docs' headline tables from the committed
 *       {@code results/current/} ({@link Headline}).</li>
 * </ul>
 * {@code --only} runs the named steps and leaves the other files of the output folder as they are. Runs from the
 * {@code benchmarks/} folder. Exit code 1 when a step failed or (tiny) the docs' tables differ.
 */
public final class Current {

    enum Output {
        /** The probe writes into a folder: {@code {out}} is {@code current/<step>/}. */
        DIR,
        /** The probe writes one file: {@code {out}} is {@code current/<step>.md}. */
        FILE,
        /** The probe prints its report: standard output goes to {@code current/<step>.md}. */
        STDOUT
    }

    /** One step: a main class in a JVM of its own, its arguments per size (no entry: not run at that size). */
    record Step(String name, String backs, Output output, List<String> jvm, String main, Map<String, String> args) {
    }

    static final String STANDARD = "standard";
    static final String COMPLETE = "complete";
    static final String TINY = "tiny";

    private static final List<String> UTIL = List.of("--add-opens=java.base/java.util=ALL-UNNAMED");
    private static final List<String> BOTH = List.of("--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED");
    private static final List<String> G1_RSS = List.of("-XX:+UseG1GC", "-XX:MinHeapFreeRatio=5", "-XX:MaxHeapFreeRatio=10");

    private static final String P = "io.quackjvm.bench.probes.";

    /** Every step, in the order they run. A size maps to the arguments; {@code complete} runs what standard does. */
    static final List<Step> STEPS = List.of(
            step("compare", "the headline tables; docs/benchmarks.md, tuning.md, writing.md, columnar.md, arrow.md",
                    Output.DIR, List.of("-Xmx256m"), Compare.class.getName(),
                    STANDARD, "--mode full --no-scaling --out {out}",
                    COMPLETE, "--mode full --out {out}",
                    TINY, "--mode tiny --out {out}"),
            step("interleaved", "the headline tables' lookups, counts, ranges and adds; docs/benchmarks.md",
                    Output.DIR, flags("-Xmx6g", BOTH), Rounds.class.getName(),
                    STANDARD, "--mode full --out {out}",
                    TINY, "--mode tiny --configs cq-onheap,quack-file,quack-db-file,raw-jdbc-file --out {out}"),
            step("interleaved-two-builds", "nothing (exercises --builds in CI: this checkout twice)",
                    Output.DIR, flags("-Xmx1g", BOTH), Rounds.class.getName(),
                    TINY, "--mode tiny --builds a={root},b={root} --configs quack-file,quack-db-file --out {out}"),
            step("compare-art", "docs/indexes.md, docs/tuning.md, docs/benchmarks.md (ART against the default scan)",
                    Output.DIR, List.of("-Xmx256m"), Compare.class.getName(),
                    COMPLETE, "--mode full --no-scaling --configs quack-file,quack-file-art --out {out}"),
            step("statement-floors", "docs/benchmarks.md (statement floors)", Output.DIR, flags("-Xmx6g", UTIL),
                    P + "StatementFloors", STANDARD, "1000000 {out}"),
            step("answers", "docs/aggregates.md", Output.STDOUT, flags("-Xmx6g", BOTH), P + "AnswersProbe",
                    STANDARD, "1000000 7", TINY, "2000 1"),
            step("groupby-floor", "docs/aggregates.md", Output.STDOUT, List.of("-Xmx2g"), P + "GroupByFloor",
                    STANDARD, "1000000 31", TINY, "2000 3"),
            step("query-pushdown", "docs/querying.md, docs/joins.md", Output.STDOUT, flags("-Xmx6g", BOTH),
                    P + "QueryPushDownProbe", STANDARD, "1000000 7"),
            step("single-add", "docs/tuning.md, docs/columnar.md", Output.FILE, flags("-Xmx2g", BOTH),
                    P + "SingleAddProbe", STANDARD, "100000 1000 {out} file,memory"),
            step("columnar-row-copy", "docs/columnar.md, docs/tuning.md", Output.FILE, flags("-Xmx6g", BOTH),
                    P + "ColumnarRowCopyProbe", STANDARD, "1000000 3000 1000 {out}"),
            step("object-cache", "docs/tuning.md (object cache)", Output.DIR, flags("-Xmx6g", BOTH),
                    P + "ObjectCacheProbe", STANDARD, "1000000 2000 {out}"),
            step("object-cache-heap", "docs/tuning.md (heap per cached object)", Output.DIR,
                    List.of("-Xmx2g", "-XX:+UseSerialGC"), P + "ObjectCacheHeapProbe", STANDARD, "200000 {out}"),
            step("memory-floor", "docs/benchmarks.md, docs/tuning.md (resident memory)", Output.DIR,
                    flags("-Xmx2g", G1_RSS, BOTH), P + "MemoryFloor", STANDARD, "1000000 {out}"),
            step("memory-limit", "docs/tuning.md, docs/troubleshooting.md", Output.STDOUT, List.of("-Xmx1g"),
                    P + "MemoryLimitProbe", STANDARD, ""),
            step("abandoned-results", "docs/reliability.md, docs/troubleshooting.md, docs/tuning.md, docs/architecture.md",
                    Output.DIR, List.of("-Xmx2g"), P + "AbandonedResults", STANDARD, "100000 400 2000 {out}",
                    TINY, "2000 20 50 {out}"),
            step("concurrency", "docs/benchmarks.md (writers, pool, threads)", Output.STDOUT, List.of("-Xmx2g"),
                    P + "ConcurrencyProbe", STANDARD, "100000 4"),
            step("shared-database", "docs/database.md", Output.STDOUT, List.of("-Xmx2g"), P + "SharedDatabaseProbe",
                    STANDARD, "50000 3 3"),
            step("many-collections", "docs/tuning.md, docs/architecture.md", Output.FILE, flags("-Xmx2g", BOTH),
                    P + "ManyCollectionsProbe", STANDARD, "300 1000 100 {out}"),
            step("arrow-readers", "docs/arrow.md", Output.STDOUT, flags("-Xmx4g", BOTH), P + "ArrowVsJdbcBenchmark",
                    STANDARD, "1000000"),
            step("index-table-vs-column", "docs/columnar.md", Output.STDOUT, flags("-Xmx4g", BOTH),
                    P + "IndexTableVsColumn", STANDARD, "1000000"),
            step("negative-zero", "docs/columnar.md", Output.STDOUT, List.of("-Xmx2g"), P + "NegativeZeroProbe",
                    STANDARD, "1000000"),
            step("compact", "docs/tuning.md", Output.STDOUT, flags("-Xmx2g", BOTH), P + "CompactProbe",
                    STANDARD, "200000,1000000 5"),
            step("migration", "docs/migrating.md", Output.FILE, flags("-Xmx6g", BOTH), P + "MigrationProbe",
                    STANDARD, "1000000 5 --out {out}"),
            step("snapshot", "docs/reliability.md (backup and restore)", Output.FILE, flags("-Xmx4g", BOTH),
                    P + "SnapshotProbe", STANDARD, "1000000 5 --out {out}", TINY, "5000 1 --out {out}"),
            step("parquet", "docs/interop.md (export and import)", Output.FILE, flags("-Xmx6g", BOTH),
                    P + "ParquetProbe", STANDARD, "1000000 5 --out {out}", TINY, "5000 1 --out {out}"),
            step("admission", "docs/operations.md (admission control)", Output.FILE, flags("-Xmx4g", BOTH),
                    P + "AdmissionProbe", STANDARD, "1000000 15 3 1,2 --out {out}", TINY, "5000 1 1 1 --out {out}"),
            step("metrics-cost", "docs/operations.md (Micrometer)", Output.FILE, flags("-Xmx2g", BOTH),
                    P + "MetricsCostProbe", STANDARD, "100000 2000 5 --out {out}", TINY, "2000 50 1 --out {out}"),
            step("page-cache-lookups", "docs/tuning.md (100 million objects: DuckDB alone)", Output.FILE,
                    List.of("-Xmx1g"), P + "PageCacheLookups", COMPLETE, "100000000 5000 2GB --out {out}"),
            step("columnar-row-shapes", "docs/columnar.md (raw DuckDB shapes of a columnar row)", Output.STDOUT,
                    List.of("-Xmx4g"), P + "ColumnarRowShapes", COMPLETE, "1000000 2000"),
            step("columnar-lookup-shapes", "docs/columnar.md (raw DuckDB lookups, STRUCT and compression)",
                    Output.STDOUT, List.of("-Xmx4g"), P + "ColumnarLookupShapes", COMPLETE, "1000000 2000 {tmp}/shapes.duckdb"),
            step("object-cache-miss", "docs/tuning.md (what a miss adds)", Output.STDOUT, flags("-Xmx6g", BOTH),
                    P + "ObjectCacheMissDiag", COMPLETE, "1000000 2000"),
            step("and3-shapes", "docs/querying.md (an and of three conditions)", Output.STDOUT, flags("-Xmx6g", BOTH),
                    P + "And3Shapes", COMPLETE, "1000000 41 {tmp}/and3.duckdb"),
            step("lookup-drift", "docs/benchmarks.md, docs/tuning.md (a fork's lookups over time)", Output.STDOUT,
                    flags("-Xmx4g", BOTH), P + "LookupDrift", COMPLETE, "1000000 60 2000 file"),
            step("memory-phases-quack-file-256mb", "docs/tuning.md (memory phase by phase)", Output.STDOUT,
                    flags("-Xmx6g", G1_RSS, BOTH), P + "MemoryPhases", COMPLETE, "quack-file-256mb 1000000"),
            step("memory-phases-quack-columnar-file-256mb", "docs/tuning.md (memory phase by phase)", Output.STDOUT,
                    flags("-Xmx6g", G1_RSS, BOTH), P + "MemoryPhases", COMPLETE, "quack-columnar-file-256mb 1000000"),
            step("memory-phases-cq-disk", "docs/tuning.md (memory phase by phase)", Output.STDOUT,
                    flags("-Xmx6g", G1_RSS, BOTH), P + "MemoryPhases", COMPLETE, "cq-disk 1000000"),
            step("memory-phases-cq-onheap", "docs/tuning.md (memory phase by phase)", Output.STDOUT,
                    flags("-Xmx6g", G1_RSS, BOTH), P + "MemoryPhases", COMPLETE, "cq-onheap 1000000"),
            step("narrow-scaling", "docs/tuning.md, docs/benchmarks.md (narrow ranges 500k to 4M)", Output.STDOUT,
                    flags("-Xmx8g", BOTH), P + "NarrowRangeScaling", COMPLETE, "500000,1000000,2000000,4000000 300"),
            step("narrow-literals", "docs/tuning.md (literal bounds)", Output.STDOUT, flags("-Xmx8g", BOTH),
                    P + "NarrowRangeLiterals", COMPLETE, "500000,1000000,2000000,4000000 300"),
            step("narrow-shapes", "docs/benchmarks.md (narrow-range statement shapes)", Output.STDOUT,
                    List.of("-Xmx8g"), P + "NarrowRangeShapes", COMPLETE, "500000,1000000,4000000 400"),
            step("bulk", "docs/writing.md (loads at 1M)", Output.STDOUT, flags("-Xmx6g", BOTH), P + "BulkLoadProbe",
                    COMPLETE, "1000000 3"),
            step("large-load", "docs/writing.md (20M rows under memoryLimit 256MB)", Output.STDOUT,
                    List.of("-Xmx512m"), P + "LargeLoadProbe", COMPLETE, "20000000 {tmp}"),
            step("jmh", "docs/benchmarks.md (JMH point lookup and single add)", Output.DIR, List.of("-Xmx2g"),
                    "org.openjdk.jmh.Main", COMPLETE, "PointLookup|SingleAdd -rf json -rff {out}/jmh.json"));

    private Current() {
    }

    private static Step step(String name, String backs, Output output, List<String> jvm, String main, String... sizeArgs) {
        Map<String, String> args = new LinkedHashMap<>();
        for (int i = 0; i < sizeArgs.length; i += 2) {
            args.put(sizeArgs[i], sizeArgs[i + 1]);
        }
        return new Step(name, backs, output, jvm, main, args);
    }

    @SafeVarargs
    private static List<String> flags(String heap, List<String>... more) {
        List<String> f = new ArrayList<>();
        f.add(heap);
        for (List<String> m : more) {
            f.addAll(m);
        }
        return f;
    }

    /** The arguments of {@code step} at {@code size}, or null when it does not run at that size. */
    static String argsAt(Step step, String size) {
        String a = step.args.get(size);
        if (a == null && size.equals(COMPLETE)) {
            a = step.args.get(STANDARD);
        }
        return a;
    }

    public static void main(String[] args) throws Exception {
        String size = STANDARD;
        List<String> only = null;
        Path out = null;
        boolean docs = true;
        double budgetMinutes = Double.MAX_VALUE;
        int i = 0;
        if (args.length > 0 && args[0].equals("interleave")) {
            List<String> cmd = new ArrayList<>(List.of(Rounds.class.getName()));
            cmd.addAll(Arrays.asList(args).subList(1, args.length));
            System.exit(fork(cmd));
        }
        if (args.length > 1 && args[0].equals("run")) {
            System.exit(fork(Arrays.asList(args).subList(1, args.length)));
        }
        if (args.length > 0 && args[0].equals("headline")) {
            List<String> h = new ArrayList<>(List.of("--root", ".."));
            h.addAll(Arrays.asList(args).subList(1, args.length));
            Headline.main(h.toArray(String[]::new));
            return;
        }
        for (; i < args.length; i++) {
            switch (args[i]) {
                case STANDARD, COMPLETE, TINY -> size = args[i];
                case "--only" -> only = Arrays.asList(args[++i].split(","));
                case "--out" -> out = Paths.get(args[++i]);
                case "--no-docs" -> docs = false;
                case "--budget" -> budgetMinutes = Double.parseDouble(args[++i]);
                case "" -> { }
                default -> throw new IllegalArgumentException("Unknown argument '" + args[i]
                        + "'. Usage: [standard|complete|tiny] [--only step,step] [--out DIR] [--no-docs] [--budget MINUTES], or interleave ARGS | run MAIN ARGS | headline [--check]");
            }
        }
        boolean tiny = size.equals(TINY);
        if (out == null) {
            out = tiny ? Paths.get("results/raw/tiny-current") : Paths.get("results/current");
        }
        if (only == null) {
            Worker.deleteRecursively(out);
        }
        Files.createDirectories(out);
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        Path logs = Files.createDirectories(Paths.get("results/raw/current-logs").resolve(stamp + "-" + size));
        Path root = Paths.get("..").toAbsolutePath().normalize();
        System.out.println("benchmarks/results/current: size " + size + " into " + out.toAbsolutePath() + "; logs in "
                + logs.toAbsolutePath());

        boolean failed = false;
        long begun = System.nanoTime();
        List<String> skipped = new ArrayList<>();
        for (Step step : STEPS) {
            String a = argsAt(step, size);
            if (a == null || (only != null && !only.contains(step.name))) {
                continue;
            }
            if ((System.nanoTime() - begun) / 6e10 > budgetMinutes) {
                System.out.println("skipping " + step.name + ": past the time budget of " + budgetMinutes + " min");
                skipped.add(step.name);
                continue;
            }
            if (tiny && step.name.equals("interleaved-two-builds")
                    && !Files.isDirectory(root.resolve("modules/quackjvm-api/target/classes"))) {
                System.out.println("skipping " + step.name + ": this checkout's modules are not built");
                continue;
            }
            failed |= !run(step, a, out, logs, root);
        }

        Files.writeString(out.resolve("README.md"), index(size, out, skipped, budgetMinutes));
        if (tiny) {
            // Exercise the generator on this run's output, then check the committed docs against committed current/.
            if (Files.exists(out.resolve("compare/results.csv")) && Files.exists(out.resolve("interleaved/results.csv"))) {
                Files.writeString(out.resolve("headline.md"), Headline.render(out));
            }
            List<String> problems = Headline.check(root);
            if (!problems.isEmpty()) {
                problems.forEach(System.err::println);
                failed = true;
            } else {
                System.out.println("headline tables of README.md and docs/benchmarks.md match benchmarks/results/current/");
            }
        } else if (docs && only == null) {
            Headline.write(root);
            System.out.println("wrote the headline tables of README.md and docs/benchmarks.md from " + out);
        }
        System.out.println(failed ? "FAILED: at least one step failed; see " + logs : "done");
        System.exit(failed ? 1 : 0);
    }

    /** Runs {@code step} with {@code args} in its own JVM, then stamps its output. True when it exited with 0. */
    static boolean run(Step step, String args, Path out, Path logs, Path root) throws IOException, InterruptedException {
        Path target = switch (step.output) {
            case DIR -> out.resolve(step.name);
            case FILE, STDOUT -> out.resolve(step.name + ".md");
        };
        Worker.deleteRecursively(target);
        Files.deleteIfExists(target);
        if (step.output == Output.DIR) {
            Files.createDirectories(target);
        }
        Path tmp = Files.createTempDirectory("quackjvm-current-" + step.name + "-");
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(step.jvm);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(step.main);
        for (String a : args.split(" ")) {
            if (!a.isEmpty()) {
                cmd.add(a.replace("{out}", target.toString()).replace("{tmp}", tmp.toString())
                        .replace("{root}", root.toString()));
            }
        }
        String shown = "java " + String.join(" ", step.jvm) + " -cp <benchmarks class path> " + step.main + " "
                + args.replace("{out}", "benchmarks/" + target.toString().replace('\\', '/'))
                .replace("{tmp}", "<scratch>").replace("{root}", "<checkout>");
        Path log = logs.resolve(step.name + ".log");
        System.out.printf("%-40s ... ", step.name);
        System.out.flush();
        String loadStart = Stamp.loadAverages();
        noteLoad(loadStart);
        Instant started = Instant.now();
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (step.output == Output.STDOUT) {
            pb.redirectOutput(target.toFile()).redirectError(log.toFile());
        } else {
            pb.redirectErrorStream(true).redirectOutput(log.toFile());
        }
        Process p = pb.start();
        int rc;
        if (!p.waitFor(3, TimeUnit.HOURS)) {
            p.destroyForcibly();
            p.waitFor();
            rc = -1;
        } else {
            rc = p.exitValue();
        }
        Instant ended = Instant.now();
        noteLoad(Stamp.loadAverages());
        Worker.deleteRecursively(tmp);
        Stamp.apply(target, new Stamp.Run(shown, started, ended, loadStart, Stamp.loadAverages(), rc));
        System.out.printf(Locale.ROOT, "%s in %.1f min (load %s)%n", rc == 0 ? "ok" : "FAILED (exit " + rc + ")",
                (ended.toEpochMilli() - started.toEpochMilli()) / 60_000.0, loadStart);
        if (rc != 0) {
            List<String> lines = Files.readAllLines(log);
            lines.subList(Math.max(0, lines.size() - 20), lines.size()).forEach(System.out::println);
        }
        return rc == 0;
    }

    /**
     * {@code mainAndArgs} (a main class and its arguments) in a JVM of its own on this class path, with a large heap
     * and the add-opens that CQEngine's SQLite persistences and the Arrow reader need; its output is this one's.
     */
    static int fork(List<String> mainAndArgs) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(flags(System.getProperty("bench.heap", "-Xmx8g"), BOTH));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.addAll(mainAndArgs);
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }

    /** The highest 1-minute load average seen at the start or end of a step. */
    private static double maxLoad;

    private static void noteLoad(String loads) {
        try {
            maxLoad = Math.max(maxLoad, Double.parseDouble(loads.split(" ")[0]));
        } catch (RuntimeException e) {
            // not Linux
        }
    }

    /** The index of the output folder: what each file holds, which docs it backs, and the command. */
    static String index(String size, Path out, List<String> skipped, double budget) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("# Current results\n\n")
                .append("The numbers the README and `docs/benchmarks.md` quote in their headline tables, and the reruns of every ")
                .append("probe behind a figure in `docs/`, all made by one command from the `benchmarks/` folder (see ")
                .append("[../../README.md](../../README.md#the-one-command)):\n\n```sh\n")
                .append("mvn -B -pl benchmarks -am -DskipTests verify -Dbench=").append(size).append('\n')
                .append("```\n\n")
                .append(skipped.isEmpty() ? "" : "This run was given a time budget (`-Dbench=\"" + size + " --budget " + (long) budget
                        + "\"`): the steps marked below as past it did not run; the command above runs them all.\n\n")
                .append("Size of this run: `").append(size).append("`. ")
                .append(size.equals(STANDARD) ? "The complete run (`-Dbench=complete`) adds the comparison's scaling runs "
                        + "(500k to 4M) and the probes marked *complete only* below.\n\n" : "\n\n")
                .append("**Noise.** Every file starts with a stamp: the commit, the JDK, the DuckDB version, the machine (")
                .append(Stamp.machine()).append(") and the load average when its step started and ended. ")
                .append(maxLoad > Runtime.getRuntime().availableProcessors()
                        ? String.format(Locale.ROOT, "Other work shared the machine during this run: the 1-minute load average "
                        + "reached %.1f on %d cores. ", maxLoad, Runtime.getRuntime().availableProcessors()) : "")
                .append("Where a step's load average is above the number of cores, other work competed for the CPU and its ")
                .append("figures can be slower than the code deserves. Ratios between configurations measured in the same step hold better than ")
                .append("absolute times; the interleaved rounds (`interleaved/`) are the steadiest form for sub-millisecond ")
                .append("figures, because every configuration shares each moment of the machine.\n\n")
                .append("| step | file | backs | run in this size |\n|---|---|---|---|\n");
        for (Step s : STEPS) {
            if (s.name.equals("interleaved-two-builds")) {
                continue;
            }
            String file = s.output == Output.DIR ? s.name + "/" : s.name + ".md";
            boolean here = Files.exists(out.resolve(file));
            String runs = skipped.contains(s.name) ? "not run: past the time budget (`--budget " + (long) budget + "`)"
                    : argsAt(s, size) != null ? (here ? "yes" : "**not run, or failed** (see the log)")
                    : s.args.containsKey(STANDARD) ? "no" : "complete only";
            String main = s.main.startsWith(P) ? "probes." + s.main.substring(P.length())
                    : s.main.replace("io.quackjvm.bench.harness.", "harness.");
            sb.append("| `").append(main).append("` | ").append(here ? "[`" + file + "`](" + file + ")" : "`" + file + "`")
                    .append(" | ").append(s.backs).append(" | ").append(runs).append(" |\n");
        }
        sb.append("\nEach file's stamp gives the exact command of its step. The reliability soak behind `docs/reliability.md` ")
                .append("is a test of the library (`mvn -B verify -Dreliability=full`), not a step here; its records are in ")
                .append("`../archive/reliability/`.\n");
        return sb.toString();
    }

    /** Every regular file under {@code dir}. */
    static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
