package io.quackjvm.reader.arrow;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * JDBC getters, as the reference the Arrow reader is compared with. (The shipped "jdbc" reader lives in a module
 * this one may not see: provider modules do not depend on each other.)
 */
final class PlainJdbcReader implements ResultReaderProvider {

    @Override public String name() { return "jdbc"; }
    @Override public boolean bulk() { return false; }
    @Override public Optional<String> unavailableReason() { return Optional.empty(); }

    @Override
    public RowCursor open(ResultSet rs) {
        return new RowCursor() {
            final RowSource row = new RowSource() {
                @Override public boolean isNull(int c) throws SQLException { rs.getObject(c + 1); return rs.wasNull(); }
                @Override public boolean getBoolean(int c) throws SQLException { return rs.getBoolean(c + 1); }
                @Override public int getInt(int c) throws SQLException { return rs.getInt(c + 1); }
                @Override public long getLong(int c) throws SQLException { return rs.getLong(c + 1); }
                @Override public double getDouble(int c) throws SQLException { return rs.getDouble(c + 1); }
                @Override public String getString(int c) throws SQLException { return rs.getString(c + 1); }
                @Override public byte[] getBytes(int c) throws SQLException { return rs.getBytes(c + 1); }
                @Override public Object getObject(int c) throws SQLException { return rs.getObject(c + 1); }
            };
            @Override public boolean next() throws SQLException { return rs.next(); }
            @Override public RowSource row() { return row; }
            @Override public void close() { }
        };
    }
}
