package io.quackjvm.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What produced a results file and under which conditions: the commit, the JDK, the DuckDB version, the machine
 * (cores, memory, OS, CPU) and the load average at the start and at the end. {@link #apply} writes it into every
 * file of a step's output in the form the file's type allows (a Markdown quote, a JSON field, {@code #} lines, an
 * XML comment), so that a number copied from the file keeps its context.
 */
public final class Stamp {

    /** The text every stamped file contains once; a file holding it is left alone. */
    public static final String MARKER = "quackjvm-stamp";

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    /** What a step ran, when, how long, how it ended, and the load average before it started. */
    public record Run(String command, Instant started, Instant ended, String loadAtStart, String loadAtEnd, int exitCode) {
    }

    private Stamp() {
    }

    /** The facts of a stamp as {@code key: value} lines, in order. */
    public static List<String[]> facts(Run run) {
        List<String[]> f = new ArrayList<>();
        f.add(new String[] {"command", run.command()});
        f.add(new String[] {"when", UTC.format(run.started()) + " to " + UTC.format(run.ended()) + " UTC ("
                + String.format(Locale.ROOT, "%.1f min", (run.ended().toEpochMilli() - run.started().toEpochMilli()) / 60_000.0)
                + ", exit code " + run.exitCode() + ")"});
        f.add(new String[] {"load average", run.loadAtStart() + " at the start, " + run.loadAtEnd()
                + " at the end (1 minute; above the core count means other work competed for the CPU)"});
        f.add(new String[] {"commit", commit()});
        f.add(new String[] {"JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + ")"});
        f.add(new String[] {"DuckDB", duckdbVersion()});
        f.add(new String[] {"machine", machine()});
        return f;
    }

    /** Stamps every regular file under {@code path} (or {@code path} itself) that does not carry a stamp yet. */
    public static void apply(Path path, Run run) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        List<String[]> facts = facts(run);
        List<Path> files;
        try (Stream<Path> s = Files.walk(path)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            if (text.contains(MARKER)) {
                continue;
            }
            Files.writeString(file, stamped(file.getFileName().toString(), text, facts), StandardCharsets.UTF_8);
        }
    }

    /** {@code text} of a file named {@code name} with the stamp of {@code facts} in it. */
    static String stamped(String name, String text, List<String[]> facts) {
        String ext = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT) : "";
        StringBuilder sb = new StringBuilder();
        switch (ext) {
            case "md" -> {
                sb.append("<!-- ").append(MARKER).append(" -->\n");
                for (String[] f : facts) {
                    sb.append("> ").append(f[0]).append(": ").append(f[0].equals("command") ? "`" + f[1] + "`" : f[1])
                            .append("  \n");
                }
                return sb.append('\n').append(text).toString();
            }
            case "json" -> {
                int brace = text.indexOf('{');
                if (brace < 0) {
                    break;
                }
                sb.append("\n  \"").append(MARKER).append("\": {");
                for (int i = 0; i < facts.size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(Report.js(facts.get(i)[0])).append(": ")
                            .append(Report.js(facts.get(i)[1]));
                }
                sb.append("},");
                return text.substring(0, brace + 1) + sb + text.substring(brace + 1);
            }
            case "svg", "xml", "html" -> {
                sb.append("<!-- ").append(MARKER).append('\n');
                for (String[] f : facts) {
                    sb.append("     ").append(f[0]).append(": ").append(f[1].replace("--", "- -")).append('\n');
                }
                sb.append("-->\n");
                if (text.startsWith("<?xml")) {
                    int eol = text.indexOf('\n');
                    return text.substring(0, eol + 1) + sb + text.substring(eol + 1);
                }
                return sb + text;
            }
            default -> {
            }
        }
        // csv, tsv, txt, log, properties and the rest: comment lines first (readers of ours skip '#' lines).
        sb.append("# ").append(MARKER).append('\n');
        for (String[] f : facts) {
            sb.append("# ").append(f[0]).append(": ").append(f[1]).append('\n');
        }
        return sb.append(text).toString();
    }

    /**
     * The commit of the checkout this runs in ({@code git describe}-like: the short hash, with "+ local changes"
     * when the library's or the benchmarks' sources differ from it), or {@code -Dbench.library} when set (frozen
     * jars of another commit).
     */
    public static String commit() {
        String library = System.getProperty("bench.library");
        String head = git("rev-parse", "--short=10", "HEAD");
        String dirty = git("status", "--porcelain", "--", "../modules", "../pom.xml", "src", "pom.xml", "modules", "benchmarks/src");
        String checkout = head == null ? "unknown (not a git checkout)"
                : head + (dirty == null || dirty.isBlank() ? "" : " + local changes");
        return library == null ? checkout : library + " (benchmarks from " + checkout + ")";
    }

    private static String git(String... args) {
        try {
            List<String> cmd = new ArrayList<>();
            cmd.add("git");
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (Exception e) {
            return null;
        }
    }

    /** {@code SELECT version()} of the DuckDB JDBC driver on the class path. */
    public static String duckdbVersion() {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT version(), (SELECT source_id FROM pragma_version())")) {
            rs.next();
            return rs.getString(1) + " (" + rs.getString(2) + ")";
        } catch (Exception e) {
            return "unknown (" + e + ")";
        }
    }

    /** Cores, memory, OS and CPU model. */
    public static String machine() {
        String mem = "?";
        String cpu = "?";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    mem = String.format(Locale.ROOT, "%.1f GB RAM", kb / 1024.0 / 1024.0);
                }
            }
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (Exception e) {
            // not Linux: leave the question marks
        }
        return Runtime.getRuntime().availableProcessors() + " cores, " + mem + ", " + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch") + ", CPU " + cpu;
    }

    /** The 1-, 5- and 15-minute load averages from /proc/loadavg, {@code unknown} without it. */
    public static String loadAverages() {
        try {
            String[] p = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return p[0] + " / " + p[1] + " / " + p[2];
        } catch (Exception e) {
            return "unknown";
        }
    }
}
