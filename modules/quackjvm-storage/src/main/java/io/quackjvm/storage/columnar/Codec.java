package io.quackjvm.storage.columnar;

import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;

import java.sql.SQLException;

/**
 * How values of one Java type become values of one DuckDB type and back. Values cross in the representation of
 * {@link RowSource} and {@link RowWriter} ({@code String} for ENUM, {@code OffsetDateTime} for TIMESTAMP WITH TIME
 * ZONE, {@code List} for LIST, {@code Map} for STRUCT, ...), which is what lets one codec serve the top level and
 * the inside of LISTs and STRUCTs alike. Immutable and thread-safe.
 */
abstract class Codec {

    private final String sqlType;
    private final String javaType;

    Codec(String sqlType, String javaType) {
        this.sqlType = sqlType;
        this.javaType = javaType;
    }

    /** The DuckDB column type, as written in {@code CREATE TABLE}. */
    final String sqlType() {
        return sqlType;
    }

    /** The Java type, for messages. */
    final String javaType() {
        return javaType;
    }

    /** Whether the Java type is primitive: the column never holds NULL and a gained field cannot be added. */
    boolean primitive() {
        return false;
    }

    /**
     * The value in the RowWriter representation.
     *
     * @throws IllegalArgumentException when the value cannot be stored exactly (out of DuckDB's range, too
     *                                  precise, not valid UTF-16), saying why
     */
    abstract Object toSql(Object value);

    /** The Java value of a value in the RowSource representation. */
    abstract Object fromSql(Object sql);

    /** Writes a non-null value as one column. Overridden by codecs with a faster typed path. */
    void write(Object value, RowWriter row) throws SQLException {
        row.putObject(toSql(value));
    }

    /** Reads one column; {@code null} for SQL NULL. Overridden by codecs with a faster typed path. */
    Object read(RowSource row, int column) throws SQLException {
        Object sql = row.getObject(column);
        return sql == null ? null : fromSql(sql);
    }
}
