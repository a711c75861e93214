package io.quackjvm.bench.probes;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;
import java.util.ServiceLoader;

/**
 * Where the Arrow reader starts to pay off: reads the same query ({@code SELECT id, name, price, n FROM t LIMIT ?},
 * BIGINT, VARCHAR, DOUBLE, INTEGER) through the shipped {@code "jdbc"} and {@code "arrow"} result readers, found
 * through the SPI as the engine finds them, and prints the median time of each, query included, for 1 row up to
 * the wide read. The engine's rule (Arrow only for results that are not small by construction) rests on this;
 * see docs/arrow.md.
 *
 * <p>Run with this module's class path and {@code --add-opens=java.base/java.nio=ALL-UNNAMED} (without it the
 * Arrow reader is unavailable and the probe says why); argument: the number of rows of the wide read (default
 * 1,000,000). Prints a tab-separated table on standard output.
 */
public final class ArrowVsJdbcBenchmark {

    private ArrowVsJdbcBenchmark() {
    }

    private static ResultReaderProvider reader(String name) {
        for (ResultReaderProvider p : ServiceLoader.load(ResultReaderProvider.class)) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new IllegalStateException("No ResultReaderProvider named '" + name + "' on the class path");
    }

    static long consume(ResultReaderProvider reader, PreparedStatement ps, long limit) throws Exception {
        ps.setLong(1, limit);
        long checksum = 0;
        try (ResultSet rs = ps.executeQuery(); RowCursor cursor = reader.open(rs)) {
            while (cursor.next()) {
                RowSource row = cursor.row();
                checksum += row.getLong(0) + row.getString(1).length() + (long) row.getDouble(2) + row.getInt(3);
            }
        }
        return checksum;
    }

    static double medianMicros(ResultReaderProvider reader, PreparedStatement ps, long limit, int runs) throws Exception {
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            consume(reader, ps, limit);
            t[i] = System.nanoTime() - start;
        }
        Arrays.sort(t);
        return t[runs / 2] / 1_000.0;
    }

    public static void main(String[] args) throws Exception {
        long wide = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        ResultReaderProvider jdbc = reader("jdbc");
        ResultReaderProvider arrow = reader("arrow");
        if (arrow.unavailableReason().isPresent()) {
            throw new IllegalStateException(arrow.unavailableReason().get());
        }
        Properties props = new Properties();
        props.setProperty("jdbc_stream_results", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t AS SELECT range AS id, 'name ' || range AS name, (range * 1.5)::DOUBLE AS price, "
                        + "(range % 1000)::INTEGER AS n FROM range(" + wide + ")");
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT id, name, price, n FROM t LIMIT ?")) {
                long[] sizes = {1, 10, 100, 1_000, 10_000, 100_000, wide};
                for (long rows : sizes) {
                    if (consume(jdbc, ps, rows) != consume(arrow, ps, rows)) {
                        throw new IllegalStateException("The two readers disagree on the first " + rows + " rows");
                    }
                }
                System.out.println("rows\tjdbc_median_us\tarrow_median_us\tarrow_speedup");
                for (long rows : sizes) {
                    int runs = rows >= 100_000 ? 7 : rows >= 10_000 ? 31 : 301;
                    medianMicros(jdbc, ps, rows, Math.max(3, runs / 3));
                    medianMicros(arrow, ps, rows, Math.max(3, runs / 3));
                    double j = medianMicros(jdbc, ps, rows, runs);
                    double a = medianMicros(arrow, ps, rows, runs);
                    System.out.printf("%d\t%.1f\t%.1f\t%.2f%n", rows, j, a, j / a);
                }
            }
        }
    }
}
