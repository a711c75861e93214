package io.quackjvm.testkit;

import io.quackjvm.api.spi.IndexStrategyProvider;
import io.quackjvm.api.spi.IndexTableDefinition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of an {@link IndexStrategyProvider}: {@code create} makes exactly the two-column table, and
 * {@code optimize} rewrites a populated table sorted by value, keeping its name, columns, rows and whatever
 * {@code create} attached to it. Runs the statements on a real in-memory DuckDB, in one transaction each, as the
 * engine does.
 */
public abstract class IndexStrategyContract extends ProviderContract<IndexStrategyProvider> {

    private static void runAll(Connection c, List<String> statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("BEGIN TRANSACTION");
            for (String sql : statements) {
                s.execute(sql);
            }
            s.execute("COMMIT");
        }
    }

    private static List<String> strings(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + (rs.getMetaData().getColumnCount() > 1 ? "|" + rs.getString(2) : ""));
            }
        }
        return out;
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @ParameterizedTest(name = "key {0}, value {1}")
    @CsvSource({"INTEGER,VARCHAR", "BIGINT,BIGINT", "VARCHAR,INTEGER", "UUID,BOOLEAN"})
    public void createMakesTheTwoColumnTableAndOptimizeKeepsItsRowsSortedByValue(String keyType, String valueType)
            throws Exception {
        IndexStrategyProvider strategy = provider();
        IndexTableDefinition table = new IndexTableDefinition("car_idx_test", "_key", keyType, valueType);
        try (Connection c = Scratch.open()) {
            List<String> create = strategy.create(table);
            assertNotNull(create, "create() must return statements");
            assertFalse(create.isEmpty(), "create() must at least create the table");
            runAll(c, create);
            assertEquals(List.of("_key|" + keyType, "value|" + valueType), strings(c, "SELECT column_name, data_type "
                    + "FROM information_schema.columns WHERE table_name = 'car_idx_test' ORDER BY ordinal_position"),
                    "the table must have exactly the key column then the value column");
            long attached = count(c, "SELECT count(*) FROM duckdb_indexes() WHERE table_name = 'car_idx_test'");

            String keyExpr = keyType.equals("UUID") ? "uuid()" : "(i * 7919 % 1000)::" + keyType;
            String valueExpr = valueType.equals("BOOLEAN") ? "(i % 3 = 0)" : "((1000 - i) % 97)::" + valueType;
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO car_idx_test SELECT " + keyExpr + ", " + valueExpr + " FROM range(1000) t(i)");
            }
            List<String> before = strings(c, "SELECT _key, value FROM car_idx_test ORDER BY ALL");
            runAll(c, strategy.optimize(table));
            assertEquals(before, strings(c, "SELECT _key, value FROM car_idx_test ORDER BY ALL"),
                    "optimize() must keep exactly the same rows");
            assertEquals(attached, count(c, "SELECT count(*) FROM duckdb_indexes() WHERE table_name = 'car_idx_test'"),
                    "optimize() must leave whatever create() attached");
            List<String> stored = strings(c, "SELECT value FROM car_idx_test");
            List<String> sorted = strings(c, "SELECT value FROM car_idx_test ORDER BY value");
            assertEquals(sorted, stored, "optimize() must leave the rows stored in value order");
            assertTrue(count(c, "SELECT count(*) FROM car_idx_test") == 1000);
        }
    }
}
