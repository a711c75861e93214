package io.quackjvm.testkit;

import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** Plain JDBC stand-ins for the engine's row writer and row source, so a layout can be checked on its own. */
final class JdbcRows {

    private JdbcRows() {
    }

    /** Writes into the parameters of a prepared INSERT, counting the values given. */
    static final class StatementWriter implements RowWriter {
        private final PreparedStatement ps;
        private int next;

        /** @param first the JDBC index of the parameter that receives the first column */
        StatementWriter(PreparedStatement ps, int first) {
            this.ps = ps;
            this.next = first;
        }

        @Override public void putNull() throws SQLException { ps.setNull(next++, Types.NULL); }
        @Override public void putBoolean(boolean v) throws SQLException { ps.setBoolean(next++, v); }
        @Override public void putInt(int v) throws SQLException { ps.setInt(next++, v); }
        @Override public void putLong(long v) throws SQLException { ps.setLong(next++, v); }
        @Override public void putDouble(double v) throws SQLException { ps.setDouble(next++, v); }
        @Override public void putString(String v) throws SQLException { ps.setString(next++, v); }
        @Override public void putBytes(byte[] v) throws SQLException { ps.setBytes(next++, v); }
        @Override public void putObject(Object v) throws SQLException { ps.setObject(next++, v); }
    }

    /** Records the values given, for comparing two writes of one object. */
    static final class CapturingWriter implements RowWriter {
        final List<Object> values = new ArrayList<>();

        @Override public void putNull() { values.add(null); }
        @Override public void putBoolean(boolean v) { values.add(v); }
        @Override public void putInt(int v) { values.add(v); }
        @Override public void putLong(long v) { values.add(v); }
        @Override public void putDouble(double v) { values.add(v); }
        @Override public void putString(String v) { values.add(v); }
        @Override public void putBytes(byte[] v) { values.add(v == null ? null : List.of(box(v))); }
        @Override public void putObject(Object v) { values.add(v); }

        private static Byte[] box(byte[] bytes) {
            Byte[] boxed = new Byte[bytes.length];
            for (int i = 0; i < bytes.length; i++) {
                boxed[i] = bytes[i];
            }
            return boxed;
        }
    }

    /** Reads the current row of a JDBC result set; column {@code i} is JDBC column {@code i + 1}. */
    static final class ResultSetSource implements RowSource {
        private final ResultSet rs;

        ResultSetSource(ResultSet rs) {
            this.rs = rs;
        }

        @Override public boolean isNull(int c) throws SQLException { rs.getObject(c + 1); return rs.wasNull(); }
        @Override public boolean getBoolean(int c) throws SQLException { return rs.getBoolean(c + 1); }
        @Override public int getInt(int c) throws SQLException { return rs.getInt(c + 1); }
        @Override public long getLong(int c) throws SQLException { return rs.getLong(c + 1); }
        @Override public double getDouble(int c) throws SQLException { return rs.getDouble(c + 1); }
        @Override public String getString(int c) throws SQLException { return rs.getString(c + 1); }
        @Override public byte[] getBytes(int c) throws SQLException { return rs.getBytes(c + 1); }
        @Override public Object getObject(int c) throws SQLException { return rs.getObject(c + 1); }
    }
}
