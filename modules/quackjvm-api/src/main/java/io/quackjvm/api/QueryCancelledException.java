package io.quackjvm.api;

/**
 * The thread waiting on a statement was interrupted ({@link Thread#interrupt()}), so the statement was cancelled
 * inside DuckDB. The thread's interrupt status is kept, as a blocking call of the JDK leaves it to its caller to
 * handle; the connection went back to the pool with no transaction open. See docs/operations.md.
 */
public class QueryCancelledException extends QuackException {

    private static final long serialVersionUID = 1L;

    public QueryCancelledException(String message, Throwable cause) {
        super(message, cause);
    }
}
