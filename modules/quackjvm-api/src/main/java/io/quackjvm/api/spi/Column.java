package io.quackjvm.api.spi;

import java.util.Objects;

/**
 * One column of an object table: its name and its DuckDB type as written in a {@code CREATE TABLE}.
 *
 * @param name    the column name, a plain SQL identifier (letters, digits, underscore)
 * @param sqlType the DuckDB type, for example {@code BIGINT}, {@code VARCHAR} or {@code BLOB}
 */
public record Column(String name, String sqlType) {

    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sqlType, "sqlType");
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("Column name '" + name + "' is not a plain SQL identifier");
        }
    }
}
