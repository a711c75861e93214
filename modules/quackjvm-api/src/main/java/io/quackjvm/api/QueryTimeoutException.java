package io.quackjvm.api;

/**
 * A statement ran past its time and was cancelled inside DuckDB, or waited past {@code admissionTimeout} for its
 * turn to run ({@link DatabaseConfig#maxConcurrentQueries(int)}). Nothing it would have written is kept, its
 * connection went back to the pool with no transaction open, and no writer waits for it. The time comes from
 * {@link DatabaseConfig#queryTimeout}, from {@link DuckDBOptions#timeout} in a call's query options, or from
 * {@link QueryResult#timeout}. See docs/operations.md.
 */
public class QueryTimeoutException extends QuackException {

    private static final long serialVersionUID = 1L;

    public QueryTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
