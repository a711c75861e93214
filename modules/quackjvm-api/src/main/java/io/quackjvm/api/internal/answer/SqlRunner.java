package io.quackjvm.api.internal.answer;

import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.database.OpenResources;

import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.RowCursor;
import io.quackjvm.api.spi.RowSource;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Runs the SQL text of {@code DuckDBDatabase.query}: checks that it is one read (DuckDB's own parser, through
 * {@code json_serialize_sql}, which serialises SELECT statements only), then runs it on a pooled connection in a
 * {@code READ ONLY} transaction with the collections' views first on the search path ({@link SqlViews}), binding
 * the parameters. A result is read at once ({@link #read}) or streamed ({@link #open}); a streamed one holds its
 * connection until it is exhausted or closed and is registered with the database's {@link OpenResources} like an
 * {@link ObjectCursor}. Thread-safe.
 */
public final class SqlRunner {

    /** The parses of texts already checked, bounded. */
    private static final int CHECKED_MAX = 512;
    private final Map<String, Parsed> checked = new ConcurrentHashMap<>();
    private final Database db;
    private final SqlViews views;
    private final Supplier<List<CollectionTable<?, ?>>> tables;
    private volatile SqlGuard guard;

    public SqlRunner(Database db, SqlViews views, Supplier<List<CollectionTable<?, ?>>> tables) {
        this.db = db;
        this.views = views;
        this.tables = tables;
    }

    /** Reads the rows of a result: the column names and a cursor over the rows. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(List<String> columns, RowCursor rows) throws SQLException;
    }

    /**
     * Refuses, before anything runs, a text that is not exactly one SELECT statement or that reaches beyond the
     * collections' relations and pure functions ({@link SqlGuard}).
     *
     * @throws io.quackjvm.api.UnsafeQueryException naming the construct that is not allowed
     * @throws QuackException naming the parse error, DuckDB's words and the SQL
     */
    public void check(String sql) {
        db.checkOpen();
        if (sql == null || sql.isBlank()) {
            throw new IllegalArgumentException("database.query needs a SELECT statement; the SQL text is empty");
        }
        Parsed parsed = checked.get(sql);
        if (parsed == null) {
            parsed = parse(sql);
            if (checked.size() >= CHECKED_MAX) {
                checked.clear();
            }
            checked.put(sql, parsed);
        }
        if (parsed.unsafe() != null) {
            throw SqlGuard.refuse(parsed.unsafe(), sql);
        }
        if (parsed.error() != null) {
            throw new QuackException(parsed.error());
        }
        Set<String> relations = new HashSet<>();
        for (CollectionTable<?, ?> t : tables.get()) {
            relations.add(t.name().toLowerCase(Locale.ROOT));
        }
        guard().check(parsed.statement(), relations, sql);
    }

    /** What DuckDB's parser made of a text: one SELECT's tree, or why not. */
    private record Parsed(String statement, String unsafe, String error) {
    }

    private SqlGuard guard() {
        SqlGuard g = guard;
        if (g == null) {
            Set<String> names = new HashSet<>();
            try (PooledConnection c = db.borrow(); Statement s = c.connection().createStatement();
                 ResultSet rs = s.executeQuery(SqlGuard.FUNCTIONS_SQL)) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            } catch (SQLException e) {
                throw Failures.wrap("Listing the engine's functions", SqlGuard.FUNCTIONS_SQL, e);
            }
            g = new SqlGuard(SqlGuard.pureFunctions(names));
            guard = g;
        }
        return g;
    }

    private Parsed parse(String sql) {
        try (PooledConnection c = db.borrow(); PreparedStatement p = c.connection().prepareStatement(
                "SELECT j->>'error', j->>'error_type', j->>'error_message', json_array_length(j->'statements'), "
                        + "(j->'statements'->0)::VARCHAR FROM (SELECT json_serialize_sql(?::VARCHAR)::JSON AS j)")) {
            p.setString(1, sql);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                if ("true".equals(rs.getString(1))) {
                    String type = rs.getString(2);
                    String message = rs.getString(3);
                    if ("not implemented".equals(type)) {
                        return new Parsed(null, "it runs exactly one read (a SELECT, WITH ... SELECT or VALUES) per "
                                + "call, and this text holds a statement that is not one (" + leadingWord(sql)
                                + "; DuckDB: " + message + "): COPY, EXPORT, SET, RESET, PRAGMA, ATTACH, DETACH, USE, "
                                + "INSTALL, LOAD, CALL and writes are refused. Write through the collections (add, "
                                + "remove, update) so that their indexes stay consistent.", null);
                    }
                    return new Parsed(null, null, "The query cannot be parsed (" + type + "): " + message + " SQL: "
                            + sql);
                }
                long statements = rs.getLong(4);
                if (statements != 1) {
                    return new Parsed(null, "it runs exactly one statement per call, and this text holds "
                            + statements + " statements. Run each statement with its own call.", null);
                }
                return new Parsed(rs.getString(5), null, null);
            }
        } catch (SQLException e) {
            throw Failures.wrap("Checking the query", sql, e);
        }
    }

    /**
     * The first word of {@code sql} after blanks, comments and opening parentheses, upper case: only to name the
     * statement in a refusal; DuckDB's parser has decided that it is not a SELECT.
     */
    private static String leadingWord(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char ch = sql.charAt(i);
            if (Character.isWhitespace(ch) || ch == '(') {
                i++;
            } else if (sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                break;
            }
        }
        int start = i;
        while (i < n && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return start == i ? "a statement" : "a " + sql.substring(start, i).toUpperCase(Locale.ROOT) + " statement";
    }

    /**
     * {@code SELECT count(*)} over the rows of {@code sql}: the statement as DuckDB's parser prints it back (no final
     * semicolon, no comments, parameters as {@code $1, $2, ...}), wrapped.
     */
    public String countSql(String sql) {
        check(sql);
        try (PooledConnection c = db.borrow(); PreparedStatement p = c.connection().prepareStatement(
                "SELECT json_deserialize_sql(json_serialize_sql(?::VARCHAR))")) {
            p.setString(1, sql);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return "SELECT count(*) FROM (" + rs.getString(1) + ")";
            }
        } catch (SQLException e) {
            throw Failures.wrap("Checking the query", sql, e);
        }
    }

    /** Runs {@code sql} and reads its whole result with {@code reader}, on the bulk reader when {@code large}. */
    public <T> T read(String sql, Object[] params, boolean large, Reader<T> reader) {
        check(sql);
        PooledConnection c = db.borrow();
        Session session = new Session(c);
        boolean ok = false;
        PreparedStatement ps = null;
        try {
            session.begin(views, tables.get());
            T out;
            ps = c.connection().prepareStatement(sql);
            // close() cancels it and waits until the connection is back
            db.started(ps);
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery(); RowCursor rows = db.reader(large).open(rs)) {
                out = reader.read(columns(rs), rows);
            }
            ok = true;
            return out;
        } catch (SQLException e) {
            PersistenceClosedException closed = db.cancelledByClose("The query", e);
            throw closed != null ? closed : Failures.wrap("Running the query", sql, e);
        } finally {
            closeQuietly(ps);
            session.end(ok);
            if (ps != null) {
                db.finished(ps);
            }
        }
    }

    /** Runs {@code sql} and returns a streaming cursor over its rows, mapped by {@code mapper}. */
    public <T> Rows<T> open(String sql, Object[] params, RowMapperFactory<T> mapper) {
        check(sql);
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
            rs = ps.executeQuery();
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
