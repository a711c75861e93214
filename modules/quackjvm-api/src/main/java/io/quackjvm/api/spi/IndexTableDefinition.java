package io.quackjvm.api.spi;

import java.util.Objects;

/**
 * The shape of one attribute index table, as the engine hands it to an {@link IndexStrategyProvider}.
 *
 * @param table     the table name, unquoted (use {@link #quotedTable()} in SQL)
 * @param keyColumn the name of the object-key column (the collection's primary key)
 * @param keyType   the DuckDB type of the key column, for example {@code INTEGER}
 * @param valueType the DuckDB type of the value column, from {@link ValueType#sqlType()}
 */
public record IndexTableDefinition(String table, String keyColumn, String keyType, String valueType) {

    /** The name of the value column. */
    public static final String VALUE_COLUMN = "value";

    public IndexTableDefinition {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(keyColumn, "keyColumn");
        Objects.requireNonNull(keyType, "keyType");
        Objects.requireNonNull(valueType, "valueType");
    }

    /** The table name quoted for SQL. */
    public String quotedTable() {
        return quote(table);
    }

    /** {@code "<table>_value"} quoted: the conventional name of an index on the value column. */
    public String quotedValueIndex() {
        return quote(table + "_value");
    }

    /** {@code CREATE TABLE <table> (<key> <keyType>, value <valueType>)}: the two columns every strategy has. */
    public String createTableStatement() {
        return "CREATE TABLE " + quotedTable() + " (" + quote(keyColumn) + " " + keyType + ", " + VALUE_COLUMN + " "
                + valueType + ")";
    }

    /** Rewrites the table ordered by value then key; drops anything attached to it (DuckDB drops its indexes). */
    public String rewriteSortedStatement() {
        return "CREATE OR REPLACE TABLE " + quotedTable() + " AS SELECT * FROM " + quotedTable() + " ORDER BY "
                + VALUE_COLUMN + ", " + quote(keyColumn);
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
