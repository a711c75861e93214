package io.quackjvm.api;

import java.sql.SQLException;

/**
 * The root of every exception quackjvm throws for a failure in the database or in its own set-up.
 * Unchecked, like the rest of CQEngine's API. A DuckDB {@link SQLException} is kept as the cause, and the SQL
 * that failed is part of the message.
 */
public class QuackException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public QuackException(String message) {
        super(message);
    }

    public QuackException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wraps a DuckDB failure, naming what was being done and the statement that failed. */
    public static QuackException wrap(String action, String sql, SQLException cause) {
        String detail = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        if (detail.contains("Conflict on")) {
            return new WriteConflictException(action + " failed because another transaction wrote the same row at "
                    + "the same time (" + detail + "); the whole write was rolled back. Keep serializeWrites(true) "
                    + "when writers may touch the same primary key." + (sql == null ? "" : " SQL: " + sql), cause);
        }
        // DuckDB's words for it; an Appender's error leaves out the first and keeps the advice.
        if (detail.contains("Out of Memory Error") || detail.contains("Increasing the memory limit")) {
            return new QuackException(io.quackjvm.api.internal.MemoryLimit.explainOutOfMemory(action, detail, sql), cause);
        }
        return new QuackException(action + " failed: " + detail + (sql == null ? "" : " SQL: " + sql), cause);
    }
}
