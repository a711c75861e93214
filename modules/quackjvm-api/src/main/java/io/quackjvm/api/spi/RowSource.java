package io.quackjvm.api.spi;

import java.sql.SQLException;

/**
 * The current row of a result, read by column position (0-based, in the order of the columns selected).
 *
 * <p>Getters for primitive types return {@code 0} or {@code false} for SQL NULL; call {@link #isNull(int)}
 * first when a column is nullable.
 */
public interface RowSource {

    boolean isNull(int column) throws SQLException;

    boolean getBoolean(int column) throws SQLException;

    int getInt(int column) throws SQLException;

    long getLong(int column) throws SQLException;

    double getDouble(int column) throws SQLException;

    String getString(int column) throws SQLException;

    byte[] getBytes(int column) throws SQLException;

    /** The value as the JDBC driver would return it from {@code getObject}; {@code null} for SQL NULL. */
    Object getObject(int column) throws SQLException;
}
