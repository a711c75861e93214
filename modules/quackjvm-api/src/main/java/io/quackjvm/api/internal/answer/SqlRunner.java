package io.quackjvm.api.internal.answer;

import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.database.OpenResources;
import io.quackjvm.api.internal.database.Statements;
import io.quackjvm.api.Operation;

import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs the SQL text of {@code DuckDBDatabase.query} once {@link SqlCheck} has let it through: on a pooled
 * connection in a {@code READ ONLY} transaction with the collections' views first on the search path
 * ({@link SqlViews}), binding the parameters. A result is read at once ({@link #read}) or streamed ({@link #open});
 * a streamed one holds its connection until it is exhausted or closed and is registered with the database's
 * {@link OpenResources} like an {@link ObjectCursor}. Thread-safe.
 */
public final class SqlRunner {

    private final Database db;
    private final SqlViews views;
    private final Supplier<List<CollectionTable<?, ?>>> tables;
    private final SqlCheck check;

    public SqlRunner(Database db, SqlViews views, Supplier<List<CollectionTable<?, ?>>> tables) {
        this.db = db;
        this.views = views;
        this.tables = tables;
        this.check = new SqlCheck(db, tables);
    }

    /** What decides, before anything runs, whether a text may run. */
    public SqlCheck check() {
        return check;
    }

    /** Reads the rows of a result: the column names and a cursor over the rows. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(List<String> columns, RowCursor rows) throws SQLException;
    }

    /** Runs {@code sql} and reads its whole result with {@code reader}, on the bulk reader when {@code large}. */
    public <T> T read(String sql, Object[] params, boolean large, Duration timeout, Reader<T> reader) {
        check.check(sql);
        return run(sql, sql, params, large, timeout, reader);
    }

    /** DuckDB's plan of {@code sql} ({@code EXPLAIN}), the text of its plan rows. */
    public String explain(String sql, Object[] params, Duration timeout) {
        check.check(sql);
        return run("EXPLAIN " + sql, sql, params, false, timeout, (columns, rows) -> explainText(rows));
    }

    /** The plan rows of an {@code EXPLAIN} (key, plan text) as one text. */
    public static String explainText(RowCursor rows) throws SQLException {
        StringBuilder out = new StringBuilder();
        while (rows.next()) {
            String plan = rows.row().getString(rows.row().isNull(1) ? 0 : 1);
            out.append(plan == null ? "" : plan.strip()).append('\n');
        }
        return out.toString();
    }

    private <T> T run(String statement, String sql, Object[] params, boolean large, Duration timeout,
                      Reader<T> reader) {
        PooledConnection c = db.borrow();
        Session session = new Session(c);
        boolean ok = false;
        PreparedStatement ps = null;
        try {
            session.begin(views, tables.get());
            T out;
            ps = c.connection().prepareStatement(statement);
            bind(ps, params);
            // closing the database cancels it and waits until the connection is back
            try (Statements.Run run = start(ps, sql, timeout);
                 ResultSet rs = ps.executeQuery(); RowCursor rows = db.reader(large).open(rs)) {
                long[] count = new long[1];
                out = reader.read(columns(rs), new RowCursor() {
                    @Override public boolean next() throws SQLException {
                        boolean more = rows.next();
                        if (more) {
                            count[0]++;
                        }
                        return more;
                    }
                    @Override public RowSource row() { return rows.row(); }
                    @Override public void close() throws SQLException { rows.close(); }
                });
                run.rows(count[0]);
                run.succeeded();
            }
            ok = true;
            return out;
        } catch (SQLException e) {
            PersistenceClosedException closed = db.running().cancelledByClose("The query", e);
            throw closed != null ? closed : Failures.wrap("Running the query", sql, e);
        } finally {
            closeQuietly(ps);
            session.end(ok);
        }
    }

    private Statements.Run start(PreparedStatement ps, String sql, Duration timeout) {
        return db.statements().start(ps, Operation.SQL, null, sql,
                timeout != null ? timeout : db.statements().timeoutOf(null), null);
    }

    /** Runs {@code sql} and returns a streaming cursor over its rows, mapped by {@code mapper}. */
    public <T> Rows<T> open(String sql, Object[] params, Duration timeout, RowMapperFactory<T> mapper) {
        check.check(sql);
        PooledConnection c = db.borrow();
        // the stream's resources are reached from the database's registry: they hold the pool's connection,
        // which does not keep the database reachable (Database.lent); the stream itself does
        Session session = new Session(Database.lent(c));
        PreparedStatement ps = null;
        ResultSet rs = null;
        try {
            session.begin(views, tables.get());
            ps = c.connection().prepareStatement(sql);
            bind(ps, params);
            try (Statements.Run run = start(ps, sql, timeout)) {
                rs = ps.executeQuery();
                run.succeeded();
            }
            RowCursor cursor = db.reader(true).open(rs);
            Held held = new Held(db.resources(), session, ps, rs, cursor);
            return new Rows<>(held, mapper.create(columns(rs)), db);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(rs);
            closeQuietly(ps);
            session.end(false);
            if (e instanceof SQLException s) {
                throw Failures.wrap("Running the query", sql, s);
            }
            throw (RuntimeException) e;
        }
    }

    /** Builds the row mapper once the column names are known. */
    @FunctionalInterface
    public interface RowMapperFactory<T> {
        RowMapper<T> create(List<String> columns);
    }

    /** Maps the current row. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(RowSource row) throws SQLException;
    }

    private static List<String> columns(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<String> names = new ArrayList<>(md.getColumnCount());
        for (int i = 1; i <= md.getColumnCount(); i++) {
            names.add(md.getColumnName(i));
        }
        return names;
    }

    private static void bind(PreparedStatement ps, Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            ps.setObject(i + 1, p instanceof LocalDate d ? DuckTypes.dateLiteral(d) : p);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // already failing or finished
            }
        }
    }

    /** One query's hold on a connection: the search path and the read-only transaction. */
    private static final class Session {
        private final PooledConnection c;
        private String restore;
        private boolean inTransaction;

        public Session(PooledConnection c) {
            this.c = c;
        }

        public void begin(SqlViews views, List<CollectionTable<?, ?>> tables) throws SQLException {
            views.refresh(c, tables);
            restore = views.defaultSearchPath(c);
            try (Statement s = c.connection().createStatement()) {
                s.execute("SET search_path = '" + views.searchPath(c) + "'");
                s.execute("BEGIN TRANSACTION READ ONLY");
                inTransaction = true;
            }
        }

        /** Ends the transaction, restores the search path and gives the connection back. */
        public void end(boolean commit) {
            try (Statement s = c.connection().createStatement()) {
                if (inTransaction) {
                    s.execute(commit ? "COMMIT" : "ROLLBACK");
                }
                if (restore != null) {
                    s.execute(restore.isEmpty() ? "RESET search_path" : "SET search_path = '" + restore + "'");
                }
            } catch (SQLException e) {
                // Never hand back a connection whose search path may still put the views before the tables, where
                // the engine's statements would find them: a closed connection is dropped by the pool.
                closeQuietly(c.connection());
            } finally {
                c.close();
            }
        }
    }

    /** What a streaming result holds, released once. Refers to nothing that refers back to its owner. */
    private static final class Held extends OpenResources.Held {
        private final Session session;
        private final PreparedStatement statement;
        private final ResultSet resultSet;
        private final RowCursor cursor;

        Held(OpenResources registry, Session session, PreparedStatement statement, ResultSet resultSet,
             RowCursor cursor) {
            super(registry, "A query stream");
            this.session = session;
            this.statement = statement;
            this.resultSet = resultSet;
            this.cursor = cursor;
        }

        @Override
        protected void free() {
            closeQuietly(cursor);
            closeQuietly(resultSet);
            closeQuietly(statement);
            session.end(true);
        }
    }

    /**
     * A streaming result: {@link #next()} hands out mapped rows until the result is exhausted, which releases
     * the connection, as {@link #close()} does.
     */
    public static final class Rows<T> implements AutoCloseable {
        private final Held held;
        private final RowMapper<T> mapper;
        private final String database;
        /** Keeps the database reachable while this result is (see {@link ObjectCursor}). */
        @SuppressWarnings({"unused", "FieldCanBeLocal"})
        private final Database keepAlive;

        public Rows(Held held, RowMapper<T> mapper, Database db) {
            this.held = held;
            this.mapper = mapper;
            this.database = db.describe();
            this.keepAlive = db;
            db.resources().register(held, this);
        }

        /** Whether the next row was read into {@code into}[0]; {@code false} once exhausted (and released). */
        public boolean next(Object[] into) {
            synchronized (held) {
                if (held.invalidated()) {
                    throw new PersistenceClosedException("This query result of the " + database + " was still open "
                            + "when the database was closed, so it can no longer be read; read results before close()");
                }
                if (held.released()) {
                    return false;
                }
                try {
                    if (held.cursor.next()) {
                        into[0] = mapper.map(held.cursor.row());
                        return true;
                    }
                } catch (SQLException e) {
                    held.release();
                    throw Failures.wrap("Reading query results", null, e);
                } catch (RuntimeException e) {
                    held.release();
                    throw e;
                }
                held.release();
                return false;
            }
        }

        @Override
        public void close() {
            held.release();
        }
    }
}
