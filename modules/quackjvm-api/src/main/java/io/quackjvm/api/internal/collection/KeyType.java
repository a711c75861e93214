package io.quackjvm.api.internal.collection;

import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;
import io.quackjvm.api.spi.ValueType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZonedDateTime;
import java.util.Set;

/**
 * How a primary-key value of one Java type is stored in, bound to and read from DuckDB: through the key's
 * {@link ValueType}, the encoding attribute indexes use, so that DuckDB's {@code =} is Java's {@code equals} and
 * its {@code <} and {@code ORDER BY} are Java's {@code compareTo}. Every value that reaches SQL for the key
 * column (a bound key, a range bound, an appended key) is the stored form; every key read back is decoded.
 *
 * <p>A key is an identity, so only types whose encoding is exact are accepted ({@link #of}).
 */
public final class KeyType<A> {

    /** Keys whose stored form has not changed since quackjvm recorded only the SQL type in the metadata. */
    private static final Set<Class<?>> UNCHANGED_SINCE_SQL_TYPE_ONLY = Set.of(Long.class, Integer.class,
            Short.class, Byte.class);

    /** Types whose {@code equals} and {@code compareTo} disagree, so no single stored form can serve both. */
    private static final Set<Class<?>> INEXACT = Set.of(OffsetDateTime.class, ZonedDateTime.class, OffsetTime.class);

    final Class<A> javaType;
    final String sqlType;
    private final ValueType<A> valueType;

    private KeyType(ValueType<A> valueType) {
        this.valueType = valueType;
        this.javaType = valueType.javaType();
        this.sqlType = valueType.sqlType();
    }

    /** The encoding, for predicates on the key column (see {@link IndexPredicates}). */
    public ValueType<A> valueType() {
        return valueType;
    }

    /** What the collection metadata records for the key, so that a file written another way is refused. */
    String signature() {
        return valueType.signature();
    }

    /**
     * Why a key recorded as {@code recorded} in a file cannot be read with this key type, or {@code null} when it
     * can. Files written before the metadata named the encoding recorded the SQL type alone; their integer keys
     * are stored exactly as now, the others raw (a String key with unpaired surrogates, or that Java orders
     * differently from DuckDB, would be misread), so those are refused.
     */
    String mismatch(String recorded) {
        if (recorded.equals(signature())) {
            return null;
        }
        if (recorded.equals(sqlType) && UNCHANGED_SINCE_SQL_TYPE_ONLY.contains(javaType)) {
            return null;
        }
        if (!recorded.contains(":")) {
            return "its primary key is stored raw as " + recorded + " by an earlier version of quackjvm, not in the "
                    + "encoding " + signature() + " that keeps Java's equality and order (read the objects with the "
                    + "version that wrote the file and add them to a new one)";
        }
        return "its primary key is stored as " + recorded + ", not " + signature();
    }

    /** The stored form of a key. */
    Object encode(A value) {
        return valueType.encode(value);
    }

    /** The stored form of a value of the key's type, for a caller that holds it untyped. */
    public Object encodeObject(Object value) {
        return valueType.encode(javaType.cast(value));
    }

    void bind(PreparedStatement statement, int index, A value) throws SQLException {
        statement.setObject(index, valueType.encode(value));
    }

    void write(RowWriter row, A value) throws SQLException {
        row.putObject(valueType.encode(value));
    }

    A read(ResultSet resultSet, int column) throws SQLException {
        return valueType.decode(resultSet.getObject(column));
    }

    A read(RowSource row, int column) throws SQLException {
        return valueType.decode(row.getObject(column));
    }

    /**
     * The key type for a primary-key attribute's type.
     *
     * @throws IllegalArgumentException naming the type and listing the supported ones, when its values cannot be
     *                                  stored with Java's exact equality and ordering
     */
    public static <A> KeyType<A> of(Class<A> type) {
        if (type != null && ValueType.isSupported(type)) {
            return new KeyType<>(ValueType.of(type));
        }
        String name = type == null ? "null" : type.getName();
        String why = type != null && INEXACT.contains(type)
                ? " because its equals (which compares the offset or zone) and compareTo (which compares the instant"
                + " first) disagree, and a key must keep both; use the Instant or LocalDateTime instead"
                : " because its values cannot be stored in DuckDB with Java's exact equality and ordering";
        throw new IllegalArgumentException("Primary key type " + name + " is not supported" + why
                + ". Supported key types: " + ValueType.supportedTypes());
    }
}
