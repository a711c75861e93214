package io.quackjvm.api.internal.answer;

import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Failures;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Decides whether an SQL text of {@code DuckDBDatabase.query} may run: DuckDB's own parser, through
 * {@code json_serialize_sql} (which serialises SELECT statements only), must find exactly one read, and
 * {@link SqlGuard} must find it reaching only the collections' relations and pure functions. Parses are cached,
 * bounded. Thread-safe.
 */
public final class SqlCheck {

    /** The parses of texts already checked, bounded. */
    private static final int CHECKED_MAX = 512;
    private final Map<String, Parsed> checked = new ConcurrentHashMap<>();
    private final Database db;
    private final Supplier<List<CollectionTable<?, ?>>> tables;
    private volatile SqlGuard guard;

    SqlCheck(Database db, Supplier<List<CollectionTable<?, ?>>> tables) {
        this.db = db;
        this.tables = tables;
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
}
