package io.quackjvm.api.spi;

import java.sql.SQLException;

/**
 * The current row of a result, read by column position (0-based, in the order of the columns selected).
 *
 * <p>Getters for primitive types return {@code 0} or {@code false} for SQL NULL; call {@link #isNull(int)}
 * first when a column is nullable.
 *
 * <p><b>What {@link #getObject} returns</b> is the same for every reader (JDBC, Arrow, ...), so that a layout decodes
 * rows without knowing which reader produced them. A reader must normalise to exactly these classes, at the top
 * level and inside LISTs and STRUCTs alike:
 * <table>
 *   <caption>DuckDB type to Java class</caption>
 *   <tr><th>DuckDB</th><th>Java</th></tr>
 *   <tr><td>BOOLEAN</td><td>{@code Boolean}</td></tr>
 *   <tr><td>TINYINT, SMALLINT, INTEGER, BIGINT</td><td>{@code Byte}, {@code Short}, {@code Integer}, {@code Long}</td></tr>
 *   <tr><td>HUGEINT</td><td>{@code java.math.BigInteger}</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>{@code Float}, {@code Double} ({@code -0.0} and NaN kept)</td></tr>
 *   <tr><td>DECIMAL</td><td>{@code java.math.BigDecimal}</td></tr>
 *   <tr><td>VARCHAR</td><td>{@code String}</td></tr>
 *   <tr><td>ENUM</td><td>{@code String}: the constant's name</td></tr>
 *   <tr><td>BLOB</td><td>{@code byte[]}</td></tr>
 *   <tr><td>UUID</td><td>{@code java.util.UUID}</td></tr>
 *   <tr><td>DATE</td><td>{@code java.time.LocalDate} (proleptic Gregorian, years before 1 included)</td></tr>
 *   <tr><td>TIME</td><td>{@code java.time.LocalTime}</td></tr>
 *   <tr><td>TIMESTAMP</td><td>{@code java.time.LocalDateTime}</td></tr>
 *   <tr><td>TIMESTAMP WITH TIME ZONE</td><td>{@code java.time.OffsetDateTime}; only its instant is meaningful
 *   (the offset is whatever the reader chose)</td></tr>
 *   <tr><td>LIST ({@code T[]})</td><td>{@code java.util.List} of the element representation; {@code null}
 *   elements kept</td></tr>
 *   <tr><td>STRUCT</td><td>{@code java.util.Map<String, Object>} from field name to value, iterating in the
 *   STRUCT's field order</td></tr>
 * </table>
 * SQL NULL is {@code null} everywhere. A reader never returns driver classes ({@code java.sql.Array},
 * {@code java.sql.Struct}, {@code java.sql.Timestamp}, {@code java.sql.Blob}).
 */
public interface RowSource {

    boolean isNull(int column) throws SQLException;

    boolean getBoolean(int column) throws SQLException;

    int getInt(int column) throws SQLException;

    long getLong(int column) throws SQLException;

    double getDouble(int column) throws SQLException;

    String getString(int column) throws SQLException;

    byte[] getBytes(int column) throws SQLException;

    /** The value in the representation described on this interface; {@code null} for SQL NULL. */
    Object getObject(int column) throws SQLException;
}
