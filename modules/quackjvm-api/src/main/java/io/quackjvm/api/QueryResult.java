package io.quackjvm.api;

import io.quackjvm.api.internal.answer.SqlRunner;
import io.quackjvm.api.internal.answer.SqlValues;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * One SQL query over the collections of a {@link DuckDBDatabase}, from {@link DuckDBDatabase#query}: each method
 * runs it once (in a read-only transaction, with its parameters bound) and reads the answer its own way.
 *
 * <pre>{@code
 * record Avg(String manufacturer, double avgPrice) { }
 * List<Avg> rows = db.query("SELECT manufacturer, avg(price) AS avgPrice FROM car WHERE doors = ? GROUP BY 1", 4)
 *                    .records(Avg.class);
 * }</pre>
 *
 * <p>Values are converted to the asked type when that is exact: any integer type to a wider or equal one that
 * holds the value, any number to {@code double}, {@code BigDecimal}, {@code String}; a {@code VARCHAR} to an
 * enum by constant name; timestamps to {@code Instant}, {@code LocalDateTime}, {@code Date}. A value that cannot
 * be converted fails naming its column. Large results ({@link #list}, {@link #records}, {@link #stream}) are read
 * through the Arrow reader when it is available, small ones ({@link #scalar}, {@link #count}) through JDBC.
 *
 * <p>Every failure of the SQL itself is a {@link QuackException} carrying DuckDB's message and the SQL text; a
 * closed database throws {@link PersistenceClosedException}. Thread-safe; immutable.
 */
public final class QueryResult {

    private final SqlRunner runner;
    private final String sql;
    private final Object[] params;
    /** This query's own timeout, or {@code null} for the database's. */
    private final Duration timeout;

    QueryResult(SqlRunner runner, String sql, Object[] params) {
        this(runner, sql, params, null);
        runner.check().check(sql);
    }

    private QueryResult(SqlRunner runner, String sql, Object[] params, Duration timeout) {
        this.runner = runner;
        this.sql = sql;
        this.params = params;
        this.timeout = timeout;
    }

    /**
     * This query with a time of its own: each of its methods then cancels the statement once it runs longer
     * than {@code timeout} and throws {@link QueryTimeoutException}; overrides the database's
     * {@link DatabaseConfig#queryTimeout(Duration)}. For {@link #stream}, the time runs until the first rows are
     * ready.
     *
     * @throws IllegalArgumentException when {@code timeout} is zero or negative
     */
    public QueryResult timeout(Duration timeout) {
        return new QueryResult(runner, sql, params, DuckDBOptions.positive(timeout, "timeout"));
    }

    /**
     * DuckDB's plan of this query ({@code EXPLAIN}), as text: the operators, the tables and indexes they read
     * and the filters pushed into the scans. The query itself does not run.
     */
    public String explain() {
        return runner.explain(sql, params, timeout);
    }

    /**
     * The one value of a result of exactly one row and one column.
     *
     * @throws QuackException when the result has more or fewer rows or columns, saying how many
     */
    public <T> T scalar(Class<T> type) {
        Objects.requireNonNull(type, "type");
        return runner.read(sql, params, false, timeout, (columns, rows) -> {
            if (columns.size() != 1) {
                throw new QuackException("scalar() needs a result of one column; the query returns " + columns.size()
                        + " " + columns + ". Use records() or list(). SQL: " + sql);
            }
            if (!rows.next()) {
                throw new QuackException("scalar() needs a result of one row; the query returns none. SQL: " + sql);
            }
            T value = SqlValues.convert(rows.row().getObject(0), type, columns.get(0));
            if (rows.next()) {
                throw new QuackException("scalar() needs a result of one row; the query returns more than one. Use "
                        + "list(). SQL: " + sql);
            }
            return value;
        });
    }

    /** The first column of every row, converted to {@code type}; {@code null} for SQL NULL. */
    public <T> List<T> list(Class<T> type) {
        Objects.requireNonNull(type, "type");
        return runner.read(sql, params, true, timeout, (columns, rows) -> {
            if (columns.isEmpty()) {
                throw new QuackException("The query returns no columns. SQL: " + sql);
            }
            List<T> out = new ArrayList<>();
            String column = columns.get(0);
            while (rows.next()) {
                out.add(SqlValues.convert(rows.row().getObject(0), type, column));
            }
            return out;
        });
    }

    /**
     * Every row as a {@code type}, a record whose components are matched to the columns by name (ignoring case);
     * extra columns are ignored. For a type that is not a record, the first column of each row.
     *
     * @throws QuackException naming the component when no column has its name, or the column when its value
     *                        cannot be converted
     */
    public <R> List<R> records(Class<R> type) {
        Objects.requireNonNull(type, "type");
        return runner.read(sql, params, true, timeout, (columns, rows) -> {
            SqlRunner.RowMapper<R> mapper = SqlValues.mapper(type, columns);
            List<R> out = new ArrayList<>();
            while (rows.next()) {
                out.add(mapper.map(rows.row()));
            }
            return out;
        });
    }

    /**
     * The rows as a lazy stream of {@code type} (mapped as by {@link #records}), read as it is consumed. It holds
     * a connection until it is exhausted or closed: close it (try-with-resources), above all when it is not read
     * to the end. One dropped unclosed is released once the garbage collector finds it, and
     * {@link DuckDBDatabase#close()} releases every one still open (reading it afterwards throws
     * {@link PersistenceClosedException}).
     */
    public <R> Stream<R> stream(Class<R> type) {
        Objects.requireNonNull(type, "type");
        SqlRunner.Rows<R> rows = runner.open(sql, params, timeout, columns -> SqlValues.mapper(type, columns));
        Spliterator<R> spliterator = new Spliterators.AbstractSpliterator<>(Long.MAX_VALUE, Spliterator.ORDERED) {
            private final Object[] next = new Object[1];

            @Override
            @SuppressWarnings("unchecked")
            public boolean tryAdvance(Consumer<? super R> action) {
                if (!rows.next(next)) {
                    return false;
                }
                action.accept((R) next[0]);
                return true;
            }
        };
        return StreamSupport.stream(spliterator, false).onClose(rows::close);
    }

    /** The number of rows of the result (counted by DuckDB, not read into Java). */
    public long count() {
        return runner.read(runner.check().countSql(sql), params, false, timeout, (columns, rows) -> {
            rows.next();
            return rows.row().getLong(0);
        });
    }

    @Override
    public String toString() {
        return "QueryResult{" + sql + "}";
    }
}
