package io.quackjvm.api.internal;

import com.googlecode.cqengine.index.support.CloseableIterator;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.NoSuchElementException;

/**
 * Streams the objects of one query. Holds its statement (and, for a read outside a write transaction, its own
 * borrowed connection) until it is exhausted or closed, whichever comes first; closing twice is harmless.
 */
final class ObjectCursor<O> implements CloseableIterator<O> {

    private final PooledConnection connection;
    private final boolean ownsConnection;
    private final PreparedStatement statement;
    private final ResultSet resultSet;
    private final RowCursor rows;
    private final ObjectTable<O> layout;
    private O next;
    private boolean closed;

    ObjectCursor(PooledConnection connection, boolean ownsConnection, PreparedStatement statement,
                 ResultSet resultSet, RowCursor rows, ObjectTable<O> layout) {
        this.connection = connection;
        this.ownsConnection = ownsConnection;
        this.statement = statement;
        this.resultSet = resultSet;
        this.rows = rows;
        this.layout = layout;
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (closed) {
            return false;
        }
        try {
            if (rows.next()) {
                next = layout.read(rows.row());
                return true;
            }
        } catch (SQLException e) {
            close();
            throw QuackException.wrap("Reading query results", null, e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        close();
        return false;
    }

    @Override
    public O next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        O result = next;
        next = null;
        return result;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            rows.close();
        } catch (SQLException | RuntimeException ignored) {
            // the result set below is closed regardless
        }
        try {
            resultSet.close();
        } catch (SQLException ignored) {
            // closing a finished result
        }
        connection.recycle(statement);
        if (ownsConnection) {
            connection.close();
        }
    }
}
