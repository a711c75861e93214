package io.quackjvm.reader.jdbc;

import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;
import org.duckdb.DuckDBStruct;

import java.sql.Array;
import java.sql.Blob;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cursor that is its own row: column {@code i} is JDBC column {@code i + 1}. {@link #getObject} turns the
 * driver's classes into the representation {@link RowSource} documents.
 */
final class JdbcRowCursor implements RowCursor, RowSource {

    private final ResultSet rs;
    /** Per column: whether it is a top-level TIMESTAMP, read with getObject(i, LocalDateTime.class). */
    private boolean[] timestamp;

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
        if (timestamp == null) {
            ResultSetMetaData md = rs.getMetaData();
            boolean[] ts = new boolean[md.getColumnCount()];
            for (int i = 0; i < ts.length; i++) {
                ts[i] = "TIMESTAMP".equals(md.getColumnTypeName(i + 1));
            }
            timestamp = ts;
        }
        if (column < timestamp.length && timestamp[column]) {
            // getObject alone gives a java.sql.Timestamp, which cannot represent every TIMESTAMP (dates before
            // 1583, times in the JVM zone's DST gaps); the driver builds a LocalDateTime exactly.
            return rs.getObject(column + 1, LocalDateTime.class);
        }
        return normalise(rs.getObject(column + 1));
    }

    /** The driver's value in the RowSource representation. */
    static Object normalise(Object value) throws SQLException {
        if (value instanceof Array || value instanceof Object[]) {
            Object[] elements = value instanceof Array array ? (Object[]) array.getArray() : (Object[]) value;
            List<Object> out = new ArrayList<>(elements.length);
            for (Object e : elements) {
                out.add(normalise(e));
            }
            return out;
        }
        if (value instanceof DuckDBStruct struct) {
            Map<String, Object> fields = struct.getMap(); // a LinkedHashMap in field order
            Map<String, Object> out = new LinkedHashMap<>(fields.size() * 2);
            for (Map.Entry<String, Object> e : fields.entrySet()) {
                out.put(e.getKey(), normalise(e.getValue()));
            }
            return out;
        }
        if (value instanceof Blob blob) {
            long length = blob.length();
            return length == 0 ? new byte[0] : blob.getBytes(1, (int) length);
        }
        if (value instanceof Timestamp ts) {
            return localDateTime(ts);
        }
        return value;
    }

    /**
     * A TIMESTAMP inside a LIST or STRUCT comes as a java.sql.Timestamp that the driver built from the
     * LocalDateTime's fields in the JVM's time zone and Julian-Gregorian calendar; reading the same fields back
     * (era included, which {@code Timestamp.toLocalDateTime} drops) recovers it, except for times inside a DST gap
     * of that zone and dates the calendar shifts (1582-10-05..14). The columnar layout never stores nested
     * TIMESTAMPs for that reason.
     */
    private static LocalDateTime localDateTime(Timestamp ts) {
        GregorianCalendar cal = new GregorianCalendar();
        cal.setTime(ts);
        int year = cal.get(Calendar.YEAR);
        if (cal.get(Calendar.ERA) == GregorianCalendar.BC) {
            year = 1 - year;
        }
        return LocalDateTime.of(year, cal.get(Calendar.MONTH) + 1, cal.get(Calendar.DAY_OF_MONTH),
                cal.get(Calendar.HOUR_OF_DAY), cal.get(Calendar.MINUTE), cal.get(Calendar.SECOND), ts.getNanos());
    }
}
