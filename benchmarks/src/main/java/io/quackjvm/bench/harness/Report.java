package io.quackjvm.bench.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** Writes results.json, results.csv, summary.md and chart.svg for one harness run. */
public final class Report {

    private final Mode mode;
    private final int n;
    private final List<Result> results;
    private final List<Result> scaling;
    private final String scalingNote;
    private final double minutes;
    private final List<java.util.Properties> interleaved;
    private final String when = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));

    public Report(Mode mode, int n, List<Result> results, List<Result> scaling, String scalingNote, double minutes,
                  List<java.util.Properties> interleaved) {
        this.interleaved = interleaved;
        this.mode = mode;
        this.n = n;
        this.results = results;
        this.scaling = scaling;
        this.scalingNote = scalingNote;
        this.minutes = minutes;
    }

    public void writeAll(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results.csv"), csv());
        Files.writeString(dir.resolve("results.json"), json());
        Files.writeString(dir.resolve("summary.md"), markdown());
        Files.writeString(dir.resolve("chart.svg"), Svg.chart(results, List.of(Metric.LOAD_MS, Metric.LOOKUP_P50_US,
                Metric.ADD_P50_US, Metric.QUERY_2PCT_MS, Metric.ITERATE_MS, Metric.RSS_MB),
                "quackjvm vs CQEngine, " + fmtCount(n) + " objects (" + mode.name().toLowerCase() + " mode, " + when
                        + "); log scale, shorter is better"));
    }

    private Result find(String config) {
        for (Result r : results) {
            if (r.config.equals(config)) {
                return r;
            }
        }
        return null;
    }

    static String fmt(double v) {
        double a = Math.abs(v);
        if (a >= 1000) return String.format(Locale.ROOT, "%,.0f", v);
        if (a >= 100) return String.format(Locale.ROOT, "%.0f", v);
        if (a >= 10) return String.format(Locale.ROOT, "%.1f", v);
        if (a >= 1) return String.format(Locale.ROOT, "%.2f", v);
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String fmtCount(int n) {
        if (n >= 1_000_000 && n % 1_000_000 == 0) return (n / 1_000_000) + "M";
        if (n >= 1_000 && n % 1_000 == 0) return (n / 1_000) + "k";
        return Integer.toString(n);
    }

    private static String ratio(Double v, Double base) {
        if (v == null || base == null || base == 0) {
            return "–";
        }
        return fmt(v / base) + "×";
    }

    // ------------------------------------------------------------------ csv / json

    String csv() {
        StringBuilder sb = new StringBuilder("config,objects,run,metric,value,unit,note\n");
        List<Result> all = new ArrayList<>(results);
        all.addAll(scaling);
        for (Result r : all) {
            String run = scaling.contains(r) ? "scaling" : "main";
            for (Metric m : Metric.values()) {
                Double v = r.value(m);
                String note = r.note(m);
                if (v == null && note.equals("not measured")) {
                    continue;
                }
                sb.append(r.config).append(',').append(r.objects).append(',').append(run).append(',').append(m.key).append(',')
                        .append(v == null ? "" : String.format(Locale.ROOT, "%.4f", v)).append(',').append(m.unit).append(',')
                        .append('"').append(note.replace("\"", "'")).append("\"\n");
            }
        }
        return sb.toString();
    }

    static String js(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') sb.append('\\').append(c);
            else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.append('"').toString();
    }

    String json() {
        StringBuilder sb = new StringBuilder("{\n");
        sb.append("  \"mode\": ").append(js(mode.name().toLowerCase())).append(",\n");
        sb.append("  \"objects\": ").append(n).append(",\n");
        sb.append("  \"when\": ").append(js(when)).append(",\n");
        sb.append("  \"machine\": ").append(js(machine())).append(",\n");
        sb.append("  \"library\": ").append(js(System.getProperty("bench.library", "as installed"))).append(",\n");
        sb.append("  \"minutes\": ").append(String.format(Locale.ROOT, "%.2f", minutes)).append(",\n");
        sb.append("  \"runs\": [\n");
        List<Result> all = new ArrayList<>(results);
        all.addAll(scaling);
        for (int i = 0; i < all.size(); i++) {
            Result r = all.get(i);
            sb.append("    {\"config\": ").append(js(r.config)).append(", \"objects\": ").append(r.objects)
                    .append(", \"run\": ").append(js(scaling.contains(r) ? "scaling" : "main"))
                    .append(", \"status\": ").append(js(r.status()))
                    .append(", \"jvm_args\": ").append(js(r.props.getProperty("jvm_args", "")))
                    .append(", \"features\": ").append(js(r.props.getProperty("features", "")))
                    .append(",\n     \"metrics\": {");
            boolean first = true;
            for (Metric m : Metric.values()) {
                Double v = r.value(m);
                String note = r.note(m);
                if (v == null && note.equals("not measured")) {
                    continue;
                }
                sb.append(first ? "" : ", ").append("\n       ").append(js(m.key)).append(": {\"value\": ")
                        .append(v == null ? "null" : String.format(Locale.ROOT, "%.4f", v))
                        .append(", \"unit\": ").append(js(m.unit)).append(", \"note\": ").append(js(note)).append('}');
                first = false;
            }
            sb.append("}}").append(i + 1 < all.size() ? "," : "").append('\n');
        }
        sb.append("  ]\n}\n");
        return sb.toString();
    }

    static String machine() {
        long memMb = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memMb = Long.parseLong(line.replaceAll("\\D", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        return Runtime.getRuntime().availableProcessors() + " cores, " + (memMb / 1024) + " GB RAM, "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", "
                + ManagementFactory.getRuntimeMXBean().getVmName() + " " + System.getProperty("java.runtime.version");
    }

    // ------------------------------------------------------------------ markdown

    String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# quackjvm benchmark: ").append(mode.name().toLowerCase()).append(" mode, ").append(fmtCount(n))
                .append(" objects\n\n");
        sb.append("Generated by `io.quackjvm.bench.harness.Compare` on ").append(when).append(" (").append(machine())
                .append("); the whole run took ").append(String.format(Locale.ROOT, "%.1f", minutes)).append(" min. ")
                .append("Each configuration ran in its own forked JVM, one after another, same heap limit (-Xmx")
                .append(mode.heap).append(").\n\n");
        sb.append("**Noise.** Timings are medians over many repetitions inside one run, but the machine may be shared with ")
                .append("other work (the load average each fork saw is in the configurations table; on 2 cores anything above 2 means ")
                .append("the forks competed for CPU). ")
                .append("Compare the ratios within this run, not absolute numbers across runs. Load and bulk-write ")
                .append("figures are single runs. Ratios are `this ÷ baseline`: below 1× is better (faster or smaller).\n\n");
        sb.append("Library under test: ").append(System.getProperty("bench.library", "the quackjvm build on the class path, checkout " + Stamp.commit()))
                .append(". ");
        String features = Configs.libraryFeatures();
        for (Result r : results) {
            if (r.config.startsWith("quack") && r.props.getProperty("features") != null) {
                features = r.props.getProperty("features");
                break;
            }
        }
        sb.append("Library features detected (in a quackjvm fork): ").append(features).append(".\n\n");

        targets(sb);
        interleavedSection(sb);

        sb.append("## Configurations\n\n| configuration | what | JVM flags | status | load avg (start → end) |\n|---|---|---|---|---|\n");
        for (Result r : results) {
            Configs.Config c = Configs.get(r.config);
            sb.append("| `").append(r.config).append("` | ").append(c.description).append(" | ")
                    .append(c.jvmFlags.isEmpty() ? "–" : "`" + String.join(" ", c.jvmFlags) + "`").append(" | ")
                    .append(r.skipped() ? "skipped: " + r.props.getProperty("reason") : r.status()).append(" | ")
                    .append(r.props.getProperty("loadavg_start", "?")).append(" → ").append(r.props.getProperty("loadavg_end", "?"))
                    .append(" |\n");
        }
        sb.append('\n');

        Result onHeap = find(Configs.ON_HEAP);
        Result disk = find(Configs.DISK);
        sb.append("## Results\n\n");
        for (Metric m : Metric.values()) {
            boolean any = false;
            for (Result r : results) {
                if (!r.skipped() && (r.value(m) != null || !r.note(m).equals("not measured"))) {
                    any = true;
                }
            }
            if (!any) {
                continue;
            }
            sb.append("### ").append(m.title).append(" (").append(m.unit).append(")\n\n").append(m.description).append("\n\n");
            sb.append("| configuration | ").append(m.unit).append(" | vs CQEngine on-heap | vs CQEngine Disk | note |\n|---|--:|--:|--:|---|\n");
            Double base1 = onHeap == null ? null : onHeap.value(m);
            Double base2 = disk == null ? null : disk.value(m);
            Map<String, List<String>> notApplicable = new LinkedHashMap<>();
            for (Result r : results) {
                if (r.skipped()) {
                    continue;
                }
                Double v = r.value(m);
                if (v == null && r.note(m).startsWith("n/a: ")) {
                    notApplicable.computeIfAbsent(r.note(m).substring(5), k -> new ArrayList<>()).add("`" + r.config + "`");
                    continue;
                }
                sb.append("| `").append(r.config).append("` | ").append(v == null ? "n/a" : fmt(v)).append(" | ")
                        .append(ratio(v, base1)).append(" | ").append(ratio(v, base2)).append(" | ")
                        .append(r.note(m).replace("|", "/")).append(" |\n");
            }
            for (Map.Entry<String, List<String>> e : notApplicable.entrySet()) {
                sb.append("\nn/a for ").append(String.join(", ", e.getValue())).append(": ").append(e.getKey()).append('.');
            }
            sb.append("\n\n");
        }

        sb.append("## Scaling: point lookup, count and narrow range before and after optimize()\n\n");
        sb.append("Growth is the value at the largest size divided by the value at the smallest: 1× means the cost does ")
                .append("not depend on the collection size.\n\n");
        if (scaling.isEmpty()) {
            sb.append(scalingNote).append(".\n\n");
        } else {
            TreeSet<Integer> sizes = new TreeSet<>();
            for (Result r : scaling) {
                sizes.add(r.objects);
            }
            for (Metric m : Metric.scaling()) {
                sb.append("### ").append(m.title).append(" (").append(m.unit).append(")\n\n| configuration |");
                for (int s : sizes) sb.append(' ').append(fmtCount(s)).append(" |");
                sb.append(" growth |\n|---|");
                for (int ignored : sizes) sb.append("--:|");
                sb.append("--:|");
                sb.append('\n');
                Map<String, Map<Integer, Result>> byConfig = new LinkedHashMap<>();
                for (Result r : scaling) {
                    byConfig.computeIfAbsent(r.config, k -> new LinkedHashMap<>()).put(r.objects, r);
                }
                for (Map.Entry<String, Map<Integer, Result>> e : byConfig.entrySet()) {
                    sb.append("| `").append(e.getKey()).append("` |");
                    for (int s : sizes) {
                        Result r = e.getValue().get(s);
                        Double v = r == null ? null : r.value(m);
                        sb.append(' ').append(v == null ? "n/a" : fmt(v)).append(" |");
                    }
                    Result lo = e.getValue().get(sizes.first());
                    Result hi = e.getValue().get(sizes.last());
                    Double vLo = lo == null ? null : lo.value(m);
                    Double vHi = hi == null ? null : hi.value(m);
                    sb.append(' ').append(vLo == null || vHi == null || vLo == 0 || sizes.size() < 2 ? "–"
                            : fmt(vHi / vLo) + "×").append(" |");
                    sb.append('\n');
                }
                sb.append('\n');
            }
        }
        sb.append("Raw numbers: `results.csv` / `results.json` next to this file. Chart: `chart.svg`.\n");
        return sb.toString();
    }

    private Double v(String config, Metric m) {
        Result r = find(config);
        return r == null ? null : r.value(m);
    }

    private void targets(StringBuilder sb) {
        sb.append("## Issue #2 targets\n\nThe foundation's targets compare like with like: `quack-file-pk` (BLOB layout, file, no ")
                .append("secondary indexes) against `cq-disk-pk` (DiskPersistence, no secondary indexes) and the raw JDBC floor.\n\n")
                .append("| target | measured | ratio | verdict |\n|---|---|--:|---|\n");
        loadTarget(sb, Configs.QUACK_FILE_PK, Configs.DISK_PK, "addAll of " + fmtCount(n) + " ≥ 2× faster than DiskPersistence (primary key only, both)");
        loadTarget(sb, Configs.QUACK_FILE, Configs.DISK, "(info) the same with 3 secondary indexes each");
        lookupTarget(sb, Configs.QUACK_FILE_PK, Configs.DISK_PK, 0.5, "PK lookup median ≤ ½ of DiskPersistence's");
        lookupTarget(sb, Configs.QUACK_FILE_PK, Configs.RAW_FILE, 1.3, "PK lookup median within 1.3× of raw DuckDB JDBC, same SQL (file)");
        lookupTarget(sb, Configs.QUACK_MEM_PK, Configs.RAW_MEM, 1.3, "(info) the same in memory");
        Double add = v(Configs.QUACK_FILE_PK, Metric.ADD_P50_US);
        if (add != null) {
            sb.append("| single add() < 2 ms median, file-backed | `quack-file-pk` ").append(fmt(add)).append(" µs | ")
                    .append(fmt(add / 2000)).append("× of 2 ms | ").append(add < 2000 ? "met" : "**not met**").append(" |\n");
        }
        Double addIdx = v(Configs.QUACK_FILE, Metric.ADD_P50_US);
        if (addIdx != null) {
            sb.append("| (info) single add() with 3 secondary indexes | `quack-file` ").append(fmt(addIdx)).append(" µs | ")
                    .append(fmt(addIdx / 2000)).append("× of 2 ms | ").append(addIdx < 2000 ? "met" : "**not met**").append(" |\n");
        }
        sb.append("\nThese verdicts are reported, never asserted: nothing fails on a timing. The raw floor's lookup includes ")
                .append("the same Kryo deserialisation as ours; its bytes-only figure is in the table 'Point lookup without deserialising'.\n\n");
    }

    private static Double d(java.util.Properties p, String key) {
        String v = p.getProperty(key);
        return v == null ? null : Double.parseDouble(v);
    }

    private void interleavedSection(StringBuilder sb) {
        if (interleaved.isEmpty()) {
            return;
        }
        sb.append("## quackjvm against raw DuckDB JDBC, interleaved in one JVM\n\n")
                .append("Both stores hold the same ").append(fmtCount(n)).append(" objects in one JVM (quackjvm BLOB, primary key only; ")
                .append("the raw floor's identical table). Every sample times our call and the raw call back to back on the same key, ")
                .append("alternating which goes first, so a busy machine slows both sides alike: the most robust form of the ")
                .append("\"within 1.3× of raw JDBC\" ratio. Single add(): ours (a CQEngine add, one transaction) against one ")
                .append("auto-committed INSERT on a reused prepared statement.\n\n")
                .append("| storage | lookup: quackjvm p50 | raw JDBC + Kryo p50 | raw bytes only p50 | ours ÷ raw+Kryo | ours ÷ bytes only | add(): quackjvm p50 | raw INSERT p50 | ours ÷ raw | samples | status |\n")
                .append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
        for (java.util.Properties p : interleaved) {
            Double q = d(p, "lookup.quack.p50_us");
            Double rk = d(p, "lookup.raw.p50_us");
            Double rb = d(p, "lookup.raw_bytes.p50_us");
            Double aq = d(p, "add.quack.p50_us");
            Double ar = d(p, "add.raw.p50_us");
            sb.append("| ").append(p.getProperty("storage")).append(" | ").append(q == null ? "n/a" : fmt(q) + " µs").append(" | ")
                    .append(rk == null ? "n/a" : fmt(rk) + " µs").append(" | ").append(rb == null ? "n/a" : fmt(rb) + " µs").append(" | ")
                    .append(ratio(q, rk)).append(" | ").append(ratio(q, rb)).append(" | ")
                    .append(aq == null ? "n/a" : fmt(aq) + " µs").append(" | ").append(ar == null ? "n/a" : fmt(ar) + " µs").append(" | ")
                    .append(ratio(aq, ar)).append(" | ").append(p.getProperty("lookup.samples", "?")).append(" / ")
                    .append(p.getProperty("add.samples", "?")).append(" | ").append(p.getProperty("status", "crashed"))
                    .append(p.getProperty("error") == null ? "" : ": " + p.getProperty("error")).append(" |\n");
        }
        sb.append("\n");
    }

    private void loadTarget(StringBuilder sb, String ours, String theirs, String title) {
        Double a = v(ours, Metric.LOAD_MS);
        Double b = v(theirs, Metric.LOAD_MS);
        if (a == null || b == null) {
            return;
        }
        double speedup = b / a;
        sb.append("| ").append(title).append(" | `").append(ours).append("` ").append(fmt(a)).append(" ms vs `")
                .append(theirs).append("` ").append(fmt(b)).append(" ms | ").append(fmt(speedup)).append("× faster | ")
                .append(speedup >= 2 ? "met" : "**not met**").append(" |\n");
    }

    private void lookupTarget(StringBuilder sb, String ours, String theirs, double limit, String title) {
        Double a = v(ours, Metric.LOOKUP_P50_US);
        Double b = v(theirs, Metric.LOOKUP_P50_US);
        if (a == null || b == null) {
            return;
        }
        double r = a / b;
        sb.append("| ").append(title).append(" | `").append(ours).append("` ").append(fmt(a)).append(" µs vs `")
                .append(theirs).append("` ").append(fmt(b)).append(" µs | ").append(fmt(r)).append("× | ")
                .append(r <= limit ? "met" : "**not met**").append(" |\n");
    }
}
