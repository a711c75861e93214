package io.quackjvm.api.spi;

import java.util.Objects;

/**
 * One column of an object table: its name, its DuckDB type as written in a {@code CREATE TABLE}, and optionally
 * the compression DuckDB must use for it in a database file.
 *
 * @param name        the column name, a plain SQL identifier (letters, digits, underscore)
 * @param sqlType     the DuckDB type, for example {@code BIGINT}, {@code VARCHAR} or {@code BLOB}
 * @param compression a DuckDB compression method name ({@code uncompressed}, {@code dictionary}, {@code fsst},
 *                    {@code rle}, {@code bitpacking}, ...) written as {@code USING COMPRESSION}, or {@code null}
 *                    to let DuckDB choose per block (the usual choice). Applies when the table is created; a table
 *                    found in an existing file keeps what it was created with. In-memory databases do not compress.
 */
public record Column(String name, String sqlType, String compression) {

    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sqlType, "sqlType");
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("Column name '" + name + "' is not a plain SQL identifier");
        }
        if (compression != null && !compression.matches("[A-Za-z_]+")) {
            throw new IllegalArgumentException("Compression '" + compression + "' of column '" + name
                    + "' is not a DuckDB compression method name (letters and underscores, e.g. 'uncompressed')");
        }
    }

    /** A column whose compression DuckDB chooses. */
    public Column(String name, String sqlType) {
        this(name, sqlType, null);
    }
}
