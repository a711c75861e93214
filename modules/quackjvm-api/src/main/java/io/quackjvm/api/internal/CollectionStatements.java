package io.quackjvm.api.internal;

import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where one collection's statements run: the request scopes, a write in the request's transaction (or one of its
 * own), a read on that transaction or on a borrowed connection, and the plumbing that turns a statement into a
 * cursor (released on close and by the Cleaner through {@link ObjectCursor}), a list, or one number. Every
 * {@link java.sql.SQLException} leaves here as a {@link io.quackjvm.api.QuackException} naming the action. It
 * builds no SQL of its own and knows nothing of the layout, keys or index tables beyond the readers it is handed.
 * Thread-safe.
 */
final class CollectionStatements {

    private final Database db;
    private final String collection;
    private final RequestScopes scopes;
    private final CollectionTable<?, ?> owner;
    /** Threads running an uncommitted {@link BulkLoad} of this collection (they hold its write lock). */
    private final java.util.Set<Thread> bulkLoading = java.util.concurrent.ConcurrentHashMap.newKeySet();

    CollectionStatements(Database db, String collection, CollectionTable<?, ?> owner) {
        this.db = db;
        this.collection = collection;
        this.owner = owner;
        this.scopes = new RequestScopes(owner);
    }

    RequestScopes scopes() {
        return scopes;
    }

    /** Work on a connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(PooledConnection connection) throws SQLException;
    }

    /** Maps one JDBC row to a value. */
    @FunctionalInterface
    interface ResultMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    /** Work on a write connection that marks the keys it changes in the object cache before it commits. */
    @FunctionalInterface
    interface CacheWork<T, A> {
        T run(PooledConnection connection, ObjectCache.Write<A> marks) throws SQLException;
    }

    /** Runs a write as {@link #write(QueryOptions, String, Work)}, handing it the object cache's marks. */
    @SuppressWarnings("unchecked")
    <T, A> T write(QueryOptions options, String action, CacheWork<T, A> work) {
        return writeIn(options, action, (scope, c) -> work.run(c, (ObjectCache.Write<A>) scope.cacheWrite()));
    }

    private interface ScopeWork<T> {
        T run(RequestScope scope, PooledConnection connection) throws SQLException;
    }

    /** Whether this thread's request in {@code options} has written: its reads see uncommitted rows. */
    boolean writing(QueryOptions options) {
        RequestScope scope = scopes.current(options);
        return scope != null && scope.activeWrite() != null;
    }

    /** Runs a write in the request's transaction (or a transaction of its own outside a request). */
    <T> T write(QueryOptions options, String action, Work<T> work) {
        return writeIn(options, action, (scope, c) -> work.run(c));
    }

    private <T> T writeIn(QueryOptions options, String action, ScopeWork<T> work) {
        if (db.readOnly()) {
            db.checkWritable(action + " on collection '" + collection + "'");
        }
        checkNoBulkLoad(action);
        RequestScope scope = scopes.current(options);
        QueryOptions own = null;
        if (scope == null || scope.isIteratorRemove()) {
            own = new QueryOptions();
            scopes.open(own);
            scope = scopes.current(own);
        }
        try {
            return work.run(scope, scope.writeConnection());
        } catch (SQLException e) {
            scope.fail();
            throw Failures.wrap(action + " on collection '" + collection + "'", null, e);
        } catch (RuntimeException | Error e) {
            scope.fail();
            throw e;
        } finally {
            if (own != null) {
                scopes.close(own);
            }
        }
    }

    /**
     * Runs a write that is a whole request on its own (CQEngine's {@code add} of one object: nothing else of the
     * request writes) without the request's transaction: under the collection's write lock, on a connection of
     * its own, in auto-commit mode when {@code transaction} is false (one statement is one transaction, and
     * DuckDB commits it for less than an explicit BEGIN and COMMIT: results/single-add/), else between BEGIN and
     * COMMIT. Returns {@code null}, having stored nothing, when the request has written already (its transaction
     * must be used), the database is read-only, or {@code work} fails with an {@link SQLException} or returns
     * {@code null} (a key already stored, say): the caller then takes the ordinary path, which reports any
     * failure. Any other exception rolls back and is thrown.
     */
    <T> T writeAlone(QueryOptions options, boolean transaction, Work<T> work) {
        if (db.readOnly()) {
            return null;
        }
        checkNoBulkLoad("Adding an object");
        RequestScope scope = scopes.current(options);
        if (scope != null && scope.activeWrite() != null) {
            return null;
        }
        java.util.concurrent.locks.Lock lock = db.writePolicy().lockFor(collection);
        lock.lock();
        try (PooledConnection c = db.borrow()) {
            RequestScope.Transaction held = new RequestScope.Transaction(db.resources(), c);
            db.resources().register(held, null);
            T result = null;
            boolean open = false;
            try {
                if (transaction) {
                    RequestScope.run(c, "BEGIN TRANSACTION");
                    open = true;
                }
                result = work.run(c);
            } catch (SQLException e) {
                result = null;
            } catch (RuntimeException | Error e) {
                if (open) {
                    RequestScope.rollbackQuietly(c);
                }
                held.detach();
                throw e;
            }
            if (!held.detach()) {
                if (transaction) {
                    throw new io.quackjvm.api.PersistenceClosedException("The " + db.describe() + " was closed "
                            + "while a write to collection '" + collection + "' was still open; nothing of that "
                            + "write was stored");
                }
                db.checkOpen();
            }
            if (!open) {
                return result;
            }
            if (result == null) {
                RequestScope.rollbackQuietly(c);
                return null;
            }
            try {
                RequestScope.run(c, "COMMIT");
            } catch (SQLException e) {
                RequestScope.rollbackQuietly(c);
                throw Failures.wrap("Committing a write to collection '" + collection + "'", null, e);
            }
            return result;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses a write on a thread whose bulk load of this collection is uncommitted: the write lock would let it
     * in, and it would race the load in a transaction of its own.
     */
    void checkNoBulkLoad(String action) {
        if (!bulkLoading.isEmpty() && bulkLoading.contains(Thread.currentThread())) {
            throw new IllegalStateException(action + " on collection '" + collection + "' refused: this thread has "
                    + "a bulk writer of the collection with uncommitted objects; commit() or close() it first");
        }
    }

    void bulkLoadStarted() {
        bulkLoading.add(Thread.currentThread());
    }

    void bulkLoadEnded() {
        bulkLoading.remove(Thread.currentThread());
    }

    /** Runs a read on the request's transaction if it has written, else on a connection of its own. */
    <T> T read(QueryOptions options, String action, Work<T> work) {
        owner.checkOpen();
        RequestScope scope = scopes.current(options);
        PooledConnection active = scope == null ? null : scope.activeWrite();
        try {
            if (active != null) {
                return work.run(active);
            }
            try (PooledConnection c = db.borrow()) {
                return work.run(c);
            }
        } catch (SQLException e) {
            if (scope != null && active != null) {
                scope.fail();
            }
            throw Failures.wrap(action + " on collection '" + collection + "'", null, e);
        }
    }

    /**
     * Runs {@code work}, which issues several reads that must see one snapshot: inside a write transaction on its
     * connection, otherwise on a connection of its own between BEGIN and COMMIT.
     */
    <T> T readInOneSnapshot(QueryOptions options, String action, Work<T> work) {
        owner.checkOpen();
        RequestScope scope = scopes.current(options);
        if (scope != null && scope.activeWrite() != null) {
            return read(options, action, work);
        }
        return read(options, action, c -> {
            RequestScope.run(c, "BEGIN TRANSACTION");
            boolean committed = false;
            try {
                T result = work.run(c);
                RequestScope.run(c, "COMMIT");
                committed = true;
                return result;
            } finally {
                if (!committed) {
                    RequestScope.rollbackQuietly(c);
                }
            }
        });
    }

    /**
     * Opens a cursor over the rows of {@code sql}, each read with {@code reader}. Outside a write transaction it
     * streams on a connection of its own; inside one the rows are read at once, because a later statement on
     * the same connection would cut a streaming result short.
     */
    <T> CloseableIterator<T> cursor(QueryOptions options, String sql, List<?> params, boolean large,
                                    ObjectTable<T> reader) {
        owner.checkOpen();
        RequestScope scope = scopes.current(options);
        PooledConnection active = scope == null ? null : scope.activeWrite();
        if (active != null) {
            List<T> all = read(options, "Querying", c -> readAll(c, sql, params, large, reader));
            return new ListCursor<>(all);
        }
        PooledConnection c = db.borrow();
        PreparedStatement ps = null;
        ResultSet rs = null;
        try {
            ps = c.prepare(sql);
            bind(ps, params);
            rs = ps.executeQuery();
            RowCursor rows = db.reader(large).open(rs);
            ObjectCursor<T> cursor = new ObjectCursor<>(db.resources(), db.describe(), c, ps, rs, rows, reader);
            if (scope != null) {
                scope.register(cursor);
            }
            return cursor;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(rs);
            if (ps != null) {
                c.recycle(ps);
            }
            c.close();
            throw e instanceof SQLException ? Failures.wrap("Querying collection '" + collection + "'", sql,
                    (SQLException) e) : (RuntimeException) e;
        }
    }

    /**
     * Reads every row of {@code sql} at once through the point reader, for a result the caller bounds with a
     * {@code LIMIT}, on the request's write connection or a borrowed one.
     */
    <T> List<T> list(QueryOptions options, String sql, List<?> params, ObjectTable<T> reader) {
        owner.checkOpen();
        return read(options, "Querying", c -> readAll(c, sql, params, false, reader));
    }

    /**
     * A cursor over rows already read (by {@link #list}), registered with the request as a streaming cursor is, so
     * that an {@code Iterator.remove()} through it behaves the same (see {@link RequestScope#isIteratorRemove}).
     */
    <T> CloseableIterator<T> cursorOver(QueryOptions options, List<T> rows) {
        ListCursor<T> cursor = new ListCursor<>(rows);
        RequestScope scope = scopes.current(options);
        if (scope != null && scope.activeWrite() == null) {
            scope.register(cursor);
        }
        return cursor;
    }

    /** Reads every row of {@code sql} on {@code c} with {@code reader}, before anything else runs on it. */
    <T> List<T> readAll(PooledConnection c, String sql, List<?> params, boolean large, ObjectTable<T> reader)
            throws SQLException {
        PreparedStatement ps = c.prepare(sql);
        try {
            bind(ps, params);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery(); RowCursor rows = db.reader(large).open(rs)) {
                while (rows.next()) {
                    out.add(reader.read(rows.row()));
                }
            }
            return out;
        } finally {
            c.recycle(ps);
        }
    }

    /** Runs {@code sql} (one row, one long column) and returns the value. */
    long queryLong(QueryOptions options, String sql, List<?> params) {
        List<Long> values = queryList(options, sql, params, rs -> rs.getLong(1));
        return values.isEmpty() ? 0L : values.get(0);
    }

    /** Runs {@code sql} and maps every row; for small answers (statistics, distinct values). */
    <T> List<T> queryList(QueryOptions options, String sql, List<?> params, ResultMapper<T> mapper) {
        return read(options, "Querying", c -> {
            PreparedStatement ps = c.prepare(sql);
            try {
                bind(ps, params);
                List<T> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(mapper.map(rs));
                    }
                }
                return out;
            } finally {
                c.recycle(ps);
            }
        });
    }

    /** Binds parameters that are already in their stored form (keys through {@link KeyType#encode}). */
    static void bind(PreparedStatement ps, List<?> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            ps.setObject(i + 1, params.get(i));
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // already failing
            }
        }
    }

    /** Iterates a list already read; used for reads inside a write transaction. */
    static final class ListCursor<O> implements CloseableIterator<O> {
        private final java.util.Iterator<O> it;

        ListCursor(List<O> list) {
            this.it = list.iterator();
        }

        @Override public boolean hasNext() { return it.hasNext(); }
        @Override public O next() { return it.next(); }
        @Override public void close() { }
    }
}
