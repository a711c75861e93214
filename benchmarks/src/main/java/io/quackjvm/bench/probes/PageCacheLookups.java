package io.quackjvm.bench.probes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * DuckDB alone: what a random point lookup by primary key costs in a table of N rows against one of 1M, with the
 * files in the operating system's page cache and after that cache was dropped. Each table has the shape of a blob
 * collection's object table ({@code _key INTEGER PRIMARY KEY}, a BLOB of about 75 bytes, the size of a serialised
 * benchmark car), is written in key order into a file of its own and checkpointed; both files are attached to one
 * DuckDB with one memory limit, and the lookups alternate between them.
 *
 * <p>The cold condition writes {@code /proc/sys/vm/drop_caches}, which needs root; without it the report says the
 * condition was skipped. Arguments: N (default 100,000,000), lookups per condition and table (default 5,000), memory
 * limit (default 2GB), {@code --out FILE} (default {@code results/raw/page-cache-lookups/run.md}).
 */
public final class PageCacheLookups {

    private static final int SMALL = 1_000_000;

    private PageCacheLookups() {
    }

    public static void main(String[] args) throws Exception {
        ProbeReport.Args parsed = ProbeReport.Args.parse(args, "results/raw/page-cache-lookups/run.md");
        String[] pos = parsed.positional();
        long n = Long.parseLong(ProbeReport.arg(pos, 0, "100000000"));
        int lookups = ProbeReport.intArg(pos, 1, 5_000);
        String limit = ProbeReport.arg(pos, 2, "2GB");
        long t0 = System.nanoTime();
        StringBuilder md = ProbeReport.stamped(PageCacheLookups.class, n, lookups, limit);
        Path work = Files.createTempDirectory("page-cache-lookups");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            md.append(String.format(Locale.ROOT, "DuckDB alone: tables of (_key INTEGER PRIMARY KEY, BLOB of about "
                    + "75 bytes) in two files, memory_limit %s, random keys, %,d lookups per table and condition "
                    + "(the first tenth not counted), alternating between the tables. Times in µs.%n%n", limit,
                    lookups));
            for (long size : new long[]{SMALL, n}) {
                long s0 = System.nanoTime();
                Path file = work.resolve("t" + size + ".duckdb");
                s.execute("ATTACH '" + file + "' AS t" + size);
                s.execute("CREATE TABLE t" + size + ".objects(_key INTEGER PRIMARY KEY, object BLOB NOT NULL)");
                s.execute("INSERT INTO t" + size + ".objects SELECT i::INTEGER, (md5(i::VARCHAR) || md5((i + 1)"
                        + "::VARCHAR) || i::VARCHAR)::BLOB FROM range(" + size + ") r(i)");
                s.execute("CHECKPOINT t" + size);
                md.append(String.format(Locale.ROOT, "- %,d rows: written in %,d s, file %,d MB%n", size,
                        (System.nanoTime() - s0) / 1_000_000_000, Files.size(file) / 1_000_000));
            }
            s.execute("SET memory_limit = '" + limit + "'");
            md.append("\n| condition | 1M median | 1M p90 | ").append(String.format(Locale.ROOT, "%,d", n))
                    .append(" median | p90 | large ÷ 1M (median) |\n|---|--:|--:|--:|--:|--:|\n");
            Random random = new Random(42);
            measure(c, "files in the page cache", n, lookups, random, md);
            if (dropPageCache()) {
                s.execute("DETACH t" + SMALL);
                s.execute("DETACH t" + n);
                s.execute("ATTACH '" + work.resolve("t" + SMALL + ".duckdb") + "' AS t" + SMALL);
                s.execute("ATTACH '" + work.resolve("t" + n + ".duckdb") + "' AS t" + n);
                measure(c, "reattached after the page cache was dropped", n, lookups, random, md);
            } else {
                md.append("| after the page cache was dropped | skipped: /proc/sys/vm/drop_caches not writable | | | | "
                        + "|\n");
            }
            md.append('\n');
        } finally {
            ProbeReport.delete(work);
        }
        ProbeReport.finish(md, t0, parsed.out());
        System.exit(0);
    }

    private static void measure(Connection c, String condition, long n, int lookups, Random random,
                                StringBuilder md) throws Exception {
        List<Long> small = new ArrayList<>();
        List<Long> large = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT object FROM t" + SMALL + ".objects WHERE _key = ?");
             PreparedStatement pl = c.prepareStatement("SELECT object FROM t" + n + ".objects WHERE _key = ?")) {
            for (int i = 0; i < lookups; i++) {
                boolean largeFirst = i % 2 == 0;
                for (int side = 0; side < 2; side++) {
                    boolean onLarge = (side == 0) == largeFirst;
                    PreparedStatement p = onLarge ? pl : ps;
                    int key = (int) (random.nextDouble() * (onLarge ? n : SMALL));
                    long t = System.nanoTime();
                    p.setInt(1, key);
                    try (ResultSet rs = p.executeQuery()) {
                        if (!rs.next() || rs.getBytes(1).length == 0) {
                            throw new IllegalStateException("key " + key + " not found");
                        }
                    }
                    long us = (System.nanoTime() - t) / 1000;
                    if (i >= lookups / 10) {
                        (onLarge ? large : small).add(us);
                    }
                }
            }
        }
        small.sort(null);
        large.sort(null);
        long sm = ProbeReport.median(small);
        long lm = ProbeReport.median(large);
        md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %.2f |%n", condition, sm,
                small.get(small.size() * 9 / 10), lm, large.get(large.size() * 9 / 10), (double) lm / sm));
    }

    /** Writes dirty pages out and drops the page cache; {@code false} when this process may not. */
    private static boolean dropPageCache() {
        Path control = Path.of("/proc/sys/vm/drop_caches");
        try {
            new ProcessBuilder("sync").inheritIO().start().waitFor();
            Files.writeString(control, "3\n");
            return true;
        } catch (Exception e) {
            System.err.println("Cannot drop the page cache (" + e + "); skipping the cold condition");
            return false;
        }
    }
}
