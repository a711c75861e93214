package io.quackjvm.api.spi;

import java.sql.SQLException;

/**
 * Walks the rows of one executed query. Not thread-safe: one cursor belongs to one request.
 *
 * <p>{@link #close()} must release everything the cursor holds (buffers, Arrow memory); the engine closes
 * the JDBC result set and statement itself afterwards.
 */
public interface RowCursor extends AutoCloseable {

    /** Moves to the next row; {@code false} when there is none. */
    boolean next() throws SQLException;

    /** The current row; valid until the next call of {@link #next()}. */
    RowSource row();

    @Override
    void close() throws SQLException;
}
