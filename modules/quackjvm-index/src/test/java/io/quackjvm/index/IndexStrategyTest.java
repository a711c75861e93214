package io.quackjvm.index;

import io.quackjvm.api.spi.IndexStrategyProvider;
import io.quackjvm.api.spi.IndexTableDefinition;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The strategies' statements, run against a real in-memory DuckDB. */
class IndexStrategyTest {

    private static final IndexTableDefinition TABLE = new IndexTableDefinition("car_idx_Price_1a2b", "_key",
            "INTEGER", "BIGINT");

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<Long> values(Statement s) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT value FROM " + TABLE.quotedTable())) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    private static void createFillAndOptimize(IndexStrategyProvider strategy, long expectedIndexes) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            for (String sql : strategy.create(TABLE)) {
                s.execute(sql);
            }
            s.execute("INSERT INTO " + TABLE.quotedTable() + " SELECT range, (range * 7919) % 1000 FROM range(5000)");
            assertEquals(expectedIndexes, count(s, "SELECT count(*) FROM duckdb_indexes() WHERE table_name = '"
                    + TABLE.table() + "'"));
            for (String sql : strategy.optimize(TABLE)) {
                s.execute(sql);
            }
            assertEquals(5000, count(s, "SELECT count(*) FROM " + TABLE.quotedTable()));
            List<Long> stored = values(s);
            assertEquals(stored.stream().sorted().toList(), stored, "optimize() stores rows in value order");
            assertEquals(expectedIndexes, count(s, "SELECT count(*) FROM duckdb_indexes() WHERE table_name = '"
                    + TABLE.table() + "'"), "optimize() keeps what create() attached");
            assertEquals(List.of("_key", "value"), columns(s));
        }
    }

    private static List<String> columns(Statement s) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_name = '"
                + TABLE.table() + "' ORDER BY ordinal_position")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void scanCreatesTheTwoColumnTableOnlyAndOptimizeSortsIt() throws SQLException {
        createFillAndOptimize(new ScanIndexStrategy(), 0);
    }

    @Test
    void artAddsAnArtIndexOnTheValueAndKeepsItThroughOptimize() throws SQLException {
        createFillAndOptimize(new ArtIndexStrategy(), 1);
    }

    @Test
    void bothStrategiesAreFoundByServiceLoaderUnderTheirNames() {
        // This test module is io.quackjvm.index itself, which provides the service but does not use it.
        IndexStrategyTest.class.getModule().addUses(IndexStrategyProvider.class);
        List<String> names = new ArrayList<>();
        ServiceLoader.load(IndexStrategyProvider.class).forEach(p -> names.add(p.name()));
        names.sort(null);
        assertEquals(List.of("art", "scan"), names);
    }

    @Test
    void classPathUsersFindThemThroughTheServicesFile() throws java.io.IOException {
        try (var in = IndexStrategyTest.class.getResourceAsStream(
                "/META-INF/services/io.quackjvm.api.spi.IndexStrategyProvider")) {
            String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(List.of(ScanIndexStrategy.class.getName(), ArtIndexStrategy.class.getName()),
                    text.lines().toList());
        }
    }
}
