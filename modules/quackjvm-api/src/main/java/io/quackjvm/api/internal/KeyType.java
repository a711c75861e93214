package io.quackjvm.api.internal;

import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Map;
import java.util.UUID;

/**
 * How a primary-key value of one Java type is stored in, bound to and read from DuckDB.
 *
 * <p>Only types whose DuckDB equality matches Java's {@code equals} are accepted: a key is an identity.
 */
abstract class KeyType<A> {

    final Class<A> javaType;
    final String sqlType;

    private KeyType(Class<A> javaType, String sqlType) {
        this.javaType = javaType;
        this.sqlType = sqlType;
    }

    abstract void bind(PreparedStatement statement, int index, A value) throws SQLException;

    abstract void write(RowWriter row, A value) throws SQLException;

    abstract A read(ResultSet resultSet, int column) throws SQLException;

    abstract A read(RowSource row, int column) throws SQLException;

    private static final Map<Class<?>, KeyType<?>> TYPES = Map.of(
            String.class, new KeyType<>(String.class, "VARCHAR") {
                void bind(PreparedStatement s, int i, String v) throws SQLException { s.setString(i, v); }
                void write(RowWriter r, String v) throws SQLException { r.putString(v); }
                String read(ResultSet r, int c) throws SQLException { return r.getString(c); }
                String read(RowSource r, int c) throws SQLException { return r.getString(c); }
            },
            Long.class, new KeyType<>(Long.class, "BIGINT") {
                void bind(PreparedStatement s, int i, Long v) throws SQLException { s.setLong(i, v); }
                void write(RowWriter r, Long v) throws SQLException { r.putLong(v); }
                Long read(ResultSet r, int c) throws SQLException { return r.getLong(c); }
                Long read(RowSource r, int c) throws SQLException { return r.getLong(c); }
            },
            Integer.class, new KeyType<>(Integer.class, "INTEGER") {
                void bind(PreparedStatement s, int i, Integer v) throws SQLException { s.setInt(i, v); }
                void write(RowWriter r, Integer v) throws SQLException { r.putInt(v); }
                Integer read(ResultSet r, int c) throws SQLException { return r.getInt(c); }
                Integer read(RowSource r, int c) throws SQLException { return r.getInt(c); }
            },
            Short.class, new KeyType<>(Short.class, "SMALLINT") {
                void bind(PreparedStatement s, int i, Short v) throws SQLException { s.setShort(i, v); }
                void write(RowWriter r, Short v) throws SQLException { r.putInt(v); }
                Short read(ResultSet r, int c) throws SQLException { return r.getShort(c); }
                Short read(RowSource r, int c) throws SQLException { return (short) r.getInt(c); }
            },
            Byte.class, new KeyType<>(Byte.class, "TINYINT") {
                void bind(PreparedStatement s, int i, Byte v) throws SQLException { s.setByte(i, v); }
                void write(RowWriter r, Byte v) throws SQLException { r.putInt(v); }
                Byte read(ResultSet r, int c) throws SQLException { return r.getByte(c); }
                Byte read(RowSource r, int c) throws SQLException { return (byte) r.getInt(c); }
            },
            Character.class, new KeyType<>(Character.class, "VARCHAR") {
                void bind(PreparedStatement s, int i, Character v) throws SQLException { s.setString(i, v.toString()); }
                void write(RowWriter r, Character v) throws SQLException { r.putString(v.toString()); }
                Character read(ResultSet r, int c) throws SQLException { return r.getString(c).charAt(0); }
                Character read(RowSource r, int c) throws SQLException { return r.getString(c).charAt(0); }
            },
            UUID.class, new KeyType<>(UUID.class, "UUID") {
                void bind(PreparedStatement s, int i, UUID v) throws SQLException { s.setObject(i, v, Types.OTHER); }
                void write(RowWriter r, UUID v) throws SQLException { r.putObject(v); }
                UUID read(ResultSet r, int c) throws SQLException { return r.getObject(c, UUID.class); }
                UUID read(RowSource r, int c) throws SQLException { Object v = r.getObject(c); return v instanceof UUID u ? u : UUID.fromString(String.valueOf(v)); }
            });

    /** The key type for a primary-key attribute's type, or an exception naming the supported ones. */
    @SuppressWarnings("unchecked")
    static <A> KeyType<A> of(Class<A> type) {
        KeyType<?> keyType = TYPES.get(type);
        if (keyType == null) {
            throw new IllegalArgumentException("Primary key type " + type.getName() + " is not supported; "
                    + "use one of String, Long, Integer, Short, Byte, Character or UUID");
        }
        return (KeyType<A>) keyType;
    }
}
