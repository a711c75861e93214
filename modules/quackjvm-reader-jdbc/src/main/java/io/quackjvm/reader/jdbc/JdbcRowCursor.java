package io.quackjvm.reader.jdbc;

import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;

import java.sql.ResultSet;
import java.sql.SQLException;

/** A cursor that is its own row: column {@code i} is JDBC column {@code i + 1}. */
final class JdbcRowCursor implements RowCursor, RowSource {

    private final ResultSet rs;

    JdbcRowCursor(ResultSet rs) {
        this.rs = rs;
    }

    @Override
    public boolean next() throws SQLException {
        return rs.next();
    }

    @Override
    public RowSource row() {
        return this;
    }

    @Override
    public void close() {
        // the engine owns the result set
    }

    @Override
    public boolean isNull(int column) throws SQLException {
        rs.getObject(column + 1);
        return rs.wasNull();
    }

    @Override
    public boolean getBoolean(int column) throws SQLException {
        return rs.getBoolean(column + 1);
    }

    @Override
    public int getInt(int column) throws SQLException {
        return rs.getInt(column + 1);
    }

    @Override
    public long getLong(int column) throws SQLException {
        return rs.getLong(column + 1);
    }

    @Override
    public double getDouble(int column) throws SQLException {
        return rs.getDouble(column + 1);
    }

    @Override
    public String getString(int column) throws SQLException {
        return rs.getString(column + 1);
    }

    @Override
    public byte[] getBytes(int column) throws SQLException {
        return rs.getBytes(column + 1);
    }

    @Override
    public Object getObject(int column) throws SQLException {
        return rs.getObject(column + 1);
    }
}
