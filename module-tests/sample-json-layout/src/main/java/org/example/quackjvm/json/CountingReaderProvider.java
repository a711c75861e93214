package org.example.quackjvm.json;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code "counting"} reader: a bulk reader that reads through JDBC getters and counts every row it hands
 * to the engine, so a test (or a curious user) can see which queries it served. Always available.
 */
public final class CountingReaderProvider implements ResultReaderProvider {

    /** The name of this reader. */
    public static final String NAME = "counting";

    private static final AtomicLong ROWS = new AtomicLong();

    public CountingReaderProvider() {
    }

    /** Rows read by every counting reader in this JVM so far. */
    public static long rowsRead() {
        return ROWS.get();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean bulk() {
        return true;
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    @Override
    public RowCursor open(ResultSet resultSet) {
        return new Cursor(resultSet);
    }

    /** Its own row; column {@code i} is JDBC column {@code i + 1}. Not thread-safe, as the SPI allows. */
    private static final class Cursor implements RowCursor, RowSource {
        private final ResultSet rs;

        Cursor(ResultSet rs) {
            this.rs = rs;
        }

        @Override
        public boolean next() throws SQLException {
            boolean more = rs.next();
            if (more) {
                ROWS.incrementAndGet();
            }
            return more;
        }

        @Override public RowSource row() { return this; }
        @Override public void close() { }
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
