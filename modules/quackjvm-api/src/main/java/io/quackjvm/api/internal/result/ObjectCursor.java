package io.quackjvm.api.internal.result;

import io.quackjvm.api.internal.collection.RequestScope;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.database.OpenResources;

import com.googlecode.cqengine.index.support.CloseableIterator;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.NoSuchElementException;

/**
 * Streams the objects of one query on a borrowed connection of its own, which it holds until it is exhausted
 * or closed, whichever comes first; closing twice is harmless. What it holds lives in a {@link Rows} registered
 * with the database's {@link OpenResources}: {@link Database#close()} releases it (using the cursor afterwards
 * throws {@link PersistenceClosedException}), and a cursor the application drops unclosed is released by the
 * garbage collector. It must not hold anything of its own that needs closing.
 */
public final class ObjectCursor<O> implements CloseableIterator<O>, RequestScope.StoreCursor {

    private final Rows rows;
    private final ObjectTable<O> layout;
    private final String database;
    /**
     * Keeps the database reachable while this cursor is: a database dropped unclosed is released by a cleaner
     * ({@link Database}), which must not close a cursor the application still reads.
     */
    @SuppressWarnings({"unused", "FieldCanBeLocal"})
    private final Database keepAlive;
    private final boolean wholeStore;
    private O next;
    /** What {@link #next()} returned last, for {@link #returnedLast}; only kept when {@link #wholeStore}. */
    private O last;

    public ObjectCursor(Database db, PooledConnection connection, PreparedStatement statement, ResultSet resultSet,
                 RowCursor rows, ObjectTable<O> layout, boolean wholeStore) {
        OpenResources registry = db.resources();
        this.rows = new Rows(registry, Database.lent(connection), statement, resultSet, rows);
        this.layout = layout;
        this.database = db.describe();
        this.keepAlive = db;
        this.wholeStore = wholeStore;
        registry.register(this.rows, this);
    }

    @Override
    public boolean returnedLast(Object o) {
        return wholeStore && o == last && !rows.released();
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        synchronized (rows) {
            if (rows.invalidated()) {
                throw new PersistenceClosedException("This result of the " + database + " was still open when the "
                        + "database was closed, so it can no longer be read; read results before close()");
            }
            if (rows.released()) {
                return false;
            }
            try {
                if (rows.cursor.next()) {
                    next = layout.read(rows.cursor.row());
                    return true;
                }
            } catch (SQLException e) {
                rows.release();
                throw Failures.wrap("Reading query results", null, e);
            } catch (RuntimeException e) {
                rows.release();
                throw e;
            }
            rows.release();
            return false;
        }
    }

    @Override
    public O next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        O result = next;
        next = null;
        if (wholeStore) {
            last = result;
        }
        return result;
    }

    @Override
    public void close() {
        rows.release();
    }

    /** What the cursor holds. Refers to nothing that refers back to the cursor, so the cursor can be collected. */
    private static final class Rows extends OpenResources.Held {
        private final PooledConnection connection;
        private final PreparedStatement statement;
        private final ResultSet resultSet;
        private final RowCursor cursor;

        Rows(OpenResources registry, PooledConnection connection, PreparedStatement statement, ResultSet resultSet,
             RowCursor cursor) {
            super(registry, "A result");
            this.connection = connection;
            this.statement = statement;
            this.resultSet = resultSet;
            this.cursor = cursor;
        }

        @Override
        protected void free() {
            try {
                cursor.close();
            } catch (SQLException | RuntimeException ignored) {
                // the result set below is closed regardless
            }
            try {
                resultSet.close();
            } catch (SQLException ignored) {
                // closing a finished result
            }
            connection.recycle(statement);
            connection.close();
        }
    }
}
