package io.quackjvm.api.spi;

import java.sql.SQLException;

/**
 * Receives the values of one row, column by column in the order of {@link ObjectTable#columns()}.
 *
 * <p>The engine backs it with DuckDB's Appender for large batches and with a prepared statement for small
 * ones; a layout writes the same way to both. Every column must receive exactly one value.
 *
 * <p>A writer may keep the values it receives until the row is appended (a bulk load records a whole chunk
 * before appending it on another thread): a layout must not change an array or object after passing it.
 */
public interface RowWriter {

    void putNull() throws SQLException;

    void putBoolean(boolean value) throws SQLException;

    void putInt(int value) throws SQLException;

    void putLong(long value) throws SQLException;

    void putDouble(double value) throws SQLException;

    void putString(String value) throws SQLException;

    void putBytes(byte[] value) throws SQLException;

    /**
     * Writes a scalar value in the representation {@link RowSource#getObject} returns for the column's type (for
     * example {@code java.util.UUID}, {@code java.math.BigDecimal}, {@code java.time.LocalDate}, a {@code String}
     * for an ENUM, a {@code java.time.OffsetDateTime} for TIMESTAMP WITH TIME ZONE); {@code null} writes SQL NULL.
     * LIST and STRUCT values go through {@link #putNested}.
     */
    void putObject(Object value) throws SQLException;

    /**
     * Writes a LIST or STRUCT value: a {@code java.util.List} for a LIST, a {@code java.util.Map<String, ?>} (in
     * the STRUCT's field order) for a STRUCT, whose elements or fields follow the same representation, nested
     * LISTs and STRUCTs included; {@code null} writes SQL NULL.
     *
     * @param sqlType the column's DuckDB type exactly as in the {@code CREATE TABLE}, for example
     *                {@code VARCHAR[]} or {@code STRUCT("x" INTEGER, "tags" VARCHAR[])}: a prepared statement
     *                needs it to build the value
     * @implSpec The default hands {@code value} to {@link #putObject}, for writers (such as test doubles) that take
     *           nested values as they are; the engine's writers override it.
     */
    default void putNested(String sqlType, Object value) throws SQLException {
        putObject(value);
    }
}
