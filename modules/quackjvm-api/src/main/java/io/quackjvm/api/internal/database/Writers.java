package io.quackjvm.api.internal.database;

import io.quackjvm.api.internal.answer.DuckTypes;

import io.quackjvm.api.spi.RowWriter;
import org.duckdb.DuckDBAppender;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/** The two ways a row reaches DuckDB: parameters of a prepared statement, or DuckDB's Appender. */
public final class Writers {

    private Writers() {
    }

    /** Fills parameters from {@code first} on. */
    public static final class StatementRow implements RowWriter {
        private final PreparedStatement statement;
        private int index;

        public StatementRow(PreparedStatement statement, int first) {
            this.statement = statement;
            this.index = first;
        }

        public int next() {
            return index;
        }

        @Override public void putNull() throws SQLException { statement.setNull(index++, Types.NULL); }
        @Override public void putBoolean(boolean v) throws SQLException { statement.setBoolean(index++, v); }
        @Override public void putInt(int v) throws SQLException { statement.setInt(index++, v); }
        @Override public void putLong(long v) throws SQLException { statement.setLong(index++, v); }
        @Override public void putDouble(double v) throws SQLException { statement.setDouble(index++, v); }
        @Override public void putString(String v) throws SQLException { statement.setString(index++, v); }
        @Override public void putBytes(byte[] v) throws SQLException { statement.setBytes(index++, v); }
        @Override public void putObject(Object v) throws SQLException {
            if (v == null) {
                putNull();
            } else {
                statement.setObject(index++, v instanceof java.time.LocalDate d ? DuckTypes.dateLiteral(d) : v);
            }
        }
        @Override public void putNested(String sqlType, Object v) throws SQLException {
            if (v == null) {
                putNull();
            } else {
                statement.setObject(index++, DuckTypes.toJdbc(statement.getConnection(), sqlType, v));
            }
        }
    }

    /** Appends to the current row of an Appender. */
    public static final class AppenderRow implements RowWriter {
        private final DuckDBAppender appender;

        public AppenderRow(DuckDBAppender appender) {
            this.appender = appender;
        }

        // appendNull, not append((String) null): the 1.5.6.0 Appender checks the column type of a typed null
        @Override public void putNull() throws SQLException { appender.appendNull(); }
        @Override public void putBoolean(boolean v) throws SQLException { appender.append(v); }
        @Override public void putInt(int v) throws SQLException { appender.append(v); }
        @Override public void putLong(long v) throws SQLException { appender.append(v); }
        @Override public void putDouble(double v) throws SQLException { appender.append(v); }
        @Override public void putString(String v) throws SQLException { appender.append(v); }
        @Override public void putBytes(byte[] v) throws SQLException {
            if (v == null) {
                putNull();
            } else {
                appender.append(v);
            }
        }
        @Override public void putObject(Object v) throws SQLException {
            if (v == null) {
                putNull();
            } else if (v instanceof java.util.UUID u) {
                appender.append(u);
            } else if (v instanceof java.math.BigDecimal d) {
                appender.append(d);
            } else if (v instanceof java.math.BigInteger i) {
                appender.append(i);
            } else if (v instanceof java.time.LocalDate d) {
                appender.append(d);
            } else if (v instanceof java.time.LocalTime t) {
                appender.append(t);
            } else if (v instanceof java.time.LocalDateTime t) {
                appender.append(t);
            } else if (v instanceof java.time.OffsetDateTime t) {
                appender.append(t);
            } else if (v instanceof Long l) {
                appender.append(l.longValue());
            } else if (v instanceof Integer i) {
                appender.append(i.intValue());
            } else if (v instanceof Short s) {
                appender.append(s.shortValue());
            } else if (v instanceof Byte b) {
                appender.append(b.byteValue());
            } else if (v instanceof Double d) {
                appender.append(d.doubleValue());
            } else if (v instanceof Float f) {
                appender.append(f.floatValue());
            } else if (v instanceof Boolean b) {
                appender.append(b.booleanValue());
            } else if (v instanceof byte[] bytes) {
                appender.append(bytes);
            } else {
                appender.append(v.toString());
            }
        }
        @Override public void putNested(String sqlType, Object v) throws SQLException {
            if (v == null) {
                putNull();
            } else {
                appendNested(v);
            }
        }

        // The 1.5.6.0 Appender takes a LIST as any Collection (its elements may be LinkedHashMaps for STRUCTs and
        // Collections for nested LISTs), and a STRUCT as beginStruct, one append per field, endStruct.
        private void appendNested(Object v) throws SQLException {
            if (v instanceof java.util.Map<?, ?> m) {
                appender.beginStruct();
                for (Object field : m.values()) {
                    if (field == null) {
                        appender.appendNull();
                    } else if (field instanceof java.util.Map<?, ?> || field instanceof java.util.Collection<?>) {
                        appendNested(field);
                    } else {
                        putObject(field);
                    }
                }
                appender.endStruct();
            } else if (v instanceof java.util.Collection<?> c) {
                appender.append(c);
            } else {
                putObject(v);
            }
        }
    }
}
