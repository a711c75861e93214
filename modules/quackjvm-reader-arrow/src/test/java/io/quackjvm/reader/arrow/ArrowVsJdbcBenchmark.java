package io.quackjvm.reader.arrow;

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

/**
 * A harness, not a test: reads the same query through both readers and prints medians, to find where Arrow
 * starts to pay off and how much faster it is on a wide result. Run with the module's test class path and
 * --add-opens=java.base/java.nio=ALL-UNNAMED; argument: the number of rows of the wide read (default 1,000,000).
 */
public final class ArrowVsJdbcBenchmark {

    private ArrowVsJdbcBenchmark() {
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
        ResultReaderProvider jdbc = new PlainJdbcReader();
        ResultReaderProvider arrow = new ArrowReaderProvider();
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
                System.out.println("rows\tjdbc_median_us\tarrow_median_us\tarrow_speedup");
                for (long rows : new long[]{1, 10, 100, 1_000, 10_000, 100_000, wide}) {
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
