package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.database.Statements;
import io.quackjvm.api.Operation;
import io.quackjvm.api.internal.result.ObjectCursor;

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
public final class CollectionStatements {

    private final Database db;
    private final String collection;
    private final RequestScopes scopes;
    private final CollectionTable<?, ?> owner;
    /** Threads running an uncommitted {@link BulkLoad} of this collection (they hold its write lock). */
    private final java.util.Set<Thread> bulkLoading = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public CollectionStatements(Database db, String collection, CollectionTable<?, ?> owner) {
        this.db = db;
        this.collection = collection;
        this.owner = owner;
        this.scopes = new RequestScopes(owner);
    }

    public RequestScopes scopes() {
        return scopes;
    }

    /** Work on a connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(PooledConnection connection) throws SQLException;
    }

    /** Maps one JDBC row to a value. */
    @FunctionalInterface
    public interface ResultMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    /** Work on a write connection that marks the keys it changes in the object cache before it commits. */
    @FunctionalInterface
    public interface CacheWork<T, A> {
        T run(PooledConnection connection, ObjectCache.Write<A> marks) throws SQLException;
    }

    /** Runs a write as {@link #write(QueryOptions, String, Work)}, handing it the object cache's marks. */
    public <T, A> T write(QueryOptions options, String action, CacheWork<T, A> work) {
        return write(options, action, null, work);
    }

    /**
     * As {@link #write(QueryOptions, String, CacheWork)}; {@code removing} (or {@code null}) is what the object
     * store's {@code removeAll} was asked to remove: when it is the one object the request's open store iterator
     * returned last, the write is an {@code Iterator.remove()} and runs as a request of its own
     * ({@link RequestScope#removesCurrentObject}).
     */
    @SuppressWarnings("unchecked")
    public <T, A> T write(QueryOptions options, String action, java.util.Collection<?> removing, CacheWork<T, A> work) {
        return writeIn(null, options, action, removing,
                (scope, c) -> work.run(c, (ObjectCache.Write<A>) scope.cacheWrite()));
    }

    private interface ScopeWork<T> {
        T run(RequestScope scope, PooledConnection connection) throws SQLException;
    }

    /** Whether this thread's request in {@code options} has written: its reads see uncommitted rows. */
    public boolean writing(QueryOptions options) {
        RequestScope scope = scopes.current(options);
        return scope != null && scope.activeWrite() != null;
    }

    /** Runs a write in the request's transaction (or a transaction of its own outside a request). */
    public <T> T write(QueryOptions options, String action, Work<T> work) {
        return writeIn(null, options, action, null, (scope, c) -> work.run(c));
    }

    /** As {@link #write(QueryOptions, String, Work)}, reported to the listeners as {@code operation}. */
    public <T> T write(Operation operation, QueryOptions options, String action, Work<T> work) {
        return writeIn(operation, options, action, null, (scope, c) -> work.run(c));
    }

    /** As {@link #write(QueryOptions, String, java.util.Collection, CacheWork)}, reported as {@code operation}. */
    @SuppressWarnings("unchecked")
    public <T, A> T write(Operation operation, QueryOptions options, String action, java.util.Collection<?> removing,
                          CacheWork<T, A> work) {
        return writeIn(operation, options, action, removing,
                (scope, c) -> work.run(c, (ObjectCache.Write<A>) scope.cacheWrite()));
    }

    private <T> T writeIn(Operation operation, QueryOptions options, String action, java.util.Collection<?> removing,
                          ScopeWork<T> work) {
        if (db.readOnly()) {
            db.checkWritable(action + " on collection '" + collection + "'");
        }
        checkNoBulkLoad(action);
        RequestScope scope = scopes.current(options);
        QueryOptions own = null;
        if (scope == null || (removing != null && scope.removesCurrentObject(removing))) {
            own = new QueryOptions();
            scopes.open(own);
            scope = scopes.current(own);
        }
        try {
            return work.run(scope, scope.writeConnection(operation));
        } catch (SQLException e) {
            scope.fail();
            throw scope.conflictReported(Failures.wrap(action + " on collection '" + collection + "'", null, e));
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
     * Runs the first write of a request optimistically: {@code attempt} runs first in the request's new
     * transaction, and when it fails with an {@link SQLException} (a key already stored, which DuckDB refuses
     * without storing anything), the transaction, which then held nothing else, is rolled back and begun again,
     * and {@code null} is returned: the caller then takes its ordinary path in the same request. Returns
     * {@code null} at once, running nothing, when the request has written already. Any other failure fails the
     * request, as {@link #write} does.
     */
    public <T> T firstWrite(QueryOptions options, String action, Work<T> attempt) {
        if (db.readOnly()) {
            db.checkWritable(action + " on collection '" + collection + "'");
        }
        checkNoBulkLoad(action);
        RequestScope scope = scopes.current(options);
        if (scope != null && scope.activeWrite() != null) {
            return null;
        }
        QueryOptions own = null;
        if (scope == null) {
            own = new QueryOptions();
            scopes.open(own);
            scope = scopes.current(own);
        }
        try {
            PooledConnection c = scope.writeConnection(Operation.ADD);
            try {
                return attempt.run(c);
            } catch (SQLException refused) {
                try {
                    scope.restartTransaction();
                } catch (SQLException e) {
                    scope.fail();
                    throw Failures.wrap(action + " on collection '" + collection + "'", null, e);
                }
                return null; // the caller's ordinary path runs in this request, on the new transaction
            }
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
     * Refuses a write on a thread whose bulk load of this collection is uncommitted: the write lock would let it
     * in, and it would race the load in a transaction of its own.
     */
    public void checkNoBulkLoad(String action) {
        if (!bulkLoading.isEmpty() && bulkLoading.contains(Thread.currentThread())) {
            throw new IllegalStateException(action + " on collection '" + collection + "' refused: this thread has "
                    + "a bulk writer of the collection with uncommitted objects; commit() or close() it first");
        }
    }

    public void bulkLoadStarted() {
        bulkLoading.add(Thread.currentThread());
    }

    public void bulkLoadEnded() {
        bulkLoading.remove(Thread.currentThread());
    }

    /** Runs a read on the request's transaction if it has written, else on a connection of its own. */
    public <T> T read(QueryOptions options, String action, Work<T> work) {
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
    public <T> T readInOneSnapshot(QueryOptions options, String action, Work<T> work) {
        owner.checkOpen();
        RequestScope scope = scopes.current(options);
        if (scope != null && scope.activeWrite() != null) {
            return read(options, action, work);
        }
        return read(options, action, c -> {
            c.begin();
            boolean committed = false;
            try {
                T result = work.run(c);
                c.commit();
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
    public <T> CloseableIterator<T> cursor(QueryOptions options, String sql, List<?> params, boolean large,
                                    ObjectTable<T> reader) {
        return cursor(options, sql, params, large, reader, false);
    }

    /**
     * As {@link #cursor(QueryOptions, String, List, boolean, ObjectTable)}; {@code wholeStore} marks the cursor of
     * the object store's own iterator, the one CQEngine's {@code Iterator.remove()} removes through (see
     * {@link RequestScope#removesCurrentObject}).
     */
    public <T> CloseableIterator<T> cursor(QueryOptions options, String sql, List<?> params, boolean large,
                                    ObjectTable<T> reader, boolean wholeStore) {
        return cursor(options, sql, params, large, reader, wholeStore, Operation.RETRIEVAL);
    }

    /** As {@link #cursor(QueryOptions, String, List, boolean, ObjectTable, boolean)}, reported as {@code operation}. */
    public <T> CloseableIterator<T> cursor(QueryOptions options, String sql, List<?> params, boolean large,
                                    ObjectTable<T> reader, boolean wholeStore, Operation operation) {
        owner.checkOpen();
        RequestScope scope = scopes.current(options);
        PooledConnection active = scope == null ? null : scope.activeWrite();
        if (active != null) {
            List<T> all = read(options, "Querying", c -> readAll(options, c, sql, params, large, reader, operation));
            return new ListCursor<>(all);
        }
        PooledConnection c = db.borrow();
        PreparedStatement ps = null;
        ResultSet rs = null;
        try {
            ps = c.prepare(sql);
            bind(ps, params);
            // the run ends once the first rows are ready: the caller's time between rows is not the statement's
            try (Statements.Run run = start(ps, operation, sql, options)) {
                rs = ps.executeQuery();
                run.succeeded();
            }
            RowCursor rows = db.reader(large).open(rs);
            ObjectCursor<T> cursor = new ObjectCursor<>(db, c, ps, rs, rows, reader, wholeStore);
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
    public <T> List<T> list(QueryOptions options, String sql, List<?> params, ObjectTable<T> reader) {
        owner.checkOpen();
        return read(options, "Querying", c -> readAll(options, c, sql, params, false, reader));
    }

    /** A cursor over rows already read (by {@link #list}). */
    public <T> CloseableIterator<T> cursorOver(List<T> rows) {
        return new ListCursor<>(rows);
    }

    /** Reads every row of {@code sql} on {@code c} with {@code reader}, before anything else runs on it. */
    public <T> List<T> readAll(QueryOptions options, PooledConnection c, String sql, List<?> params, boolean large,
                               ObjectTable<T> reader) throws SQLException {
        return readAll(options, c, sql, params, large, reader, Operation.RETRIEVAL);
    }

    private <T> List<T> readAll(QueryOptions options, PooledConnection c, String sql, List<?> params, boolean large,
                                ObjectTable<T> reader, Operation operation) throws SQLException {
        PreparedStatement ps = c.prepare(sql);
        try {
            bind(ps, params);
            List<T> out = new ArrayList<>();
            try (Statements.Run run = start(ps, operation, sql, options);
                 ResultSet rs = ps.executeQuery(); RowCursor rows = db.reader(large).open(rs)) {
                while (rows.next()) {
                    out.add(reader.read(rows.row()));
                }
                run.rows(out.size());
                run.succeeded();
            }
            return out;
        } finally {
            c.recycle(ps);
        }
    }

    /** Runs {@code sql} (one row, one long column) and returns the value. */
    public long queryLong(QueryOptions options, String sql, List<?> params) {
        return queryLong(options, sql, params, Operation.COUNT);
    }

    /** As {@link #queryLong(QueryOptions, String, List)}, reported as {@code operation}. */
    public long queryLong(QueryOptions options, String sql, List<?> params, Operation operation) {
        List<Long> values = queryList(options, sql, params, rs -> rs.getLong(1), operation);
        return values.isEmpty() ? 0L : values.get(0);
    }

    /** Runs {@code sql} and maps every row; for small answers (statistics, distinct values). */
    public <T> List<T> queryList(QueryOptions options, String sql, List<?> params, ResultMapper<T> mapper) {
        return queryList(options, sql, params, mapper, Operation.RETRIEVAL);
    }

    private <T> List<T> queryList(QueryOptions options, String sql, List<?> params, ResultMapper<T> mapper,
                                  Operation operation) {
        return read(options, "Querying", c -> {
            PreparedStatement ps = c.prepare(sql);
            try {
                bind(ps, params);
                List<T> out = new ArrayList<>();
                try (Statements.Run run = start(ps, operation, sql, options); ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(mapper.map(rs));
                    }
                    run.rows(out.size());
                    run.succeeded();
                }
                return out;
            } finally {
                c.recycle(ps);
            }
        });
    }

    /** Starts the {@link Statements.Run} of a statement of this collection, about to execute. */
    public Statements.Run start(PreparedStatement ps, Operation operation, String sql, QueryOptions options) {
        return db.statements().start(ps, operation, collection, sql, db.statements().timeoutOf(options),
                Statements.originOf(options));
    }

    /** Binds parameters that are already in their stored form (keys through {@link KeyType#encode}). */
    public static void bind(PreparedStatement ps, List<?> params) throws SQLException {
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
    public static final class ListCursor<O> implements CloseableIterator<O> {
        private final java.util.Iterator<O> it;

        public ListCursor(List<O> list) {
            this.it = list.iterator();
        }

        @Override public boolean hasNext() { return it.hasNext(); }
        @Override public O next() { return it.next(); }
        @Override public void close() { }
    }
}
