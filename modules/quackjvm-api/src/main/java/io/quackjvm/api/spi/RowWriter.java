package io.quackjvm.api.spi;

import java.sql.SQLException;

/**
 * Receives the values of one row, column by column in the order of {@link ObjectTable#columns()}.
 *
 * <p>The engine backs it with DuckDB's Appender for large batches and with a prepared statement for small
 * ones; a layout writes the same way to both. Every column must receive exactly one value.
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
     * Writes any value the JDBC driver accepts for the column's type (for example {@code java.util.UUID},
     * {@code java.math.BigDecimal}, {@code java.time.LocalDate}); {@code null} writes SQL NULL.
     */
    void putObject(Object value) throws SQLException;
}
