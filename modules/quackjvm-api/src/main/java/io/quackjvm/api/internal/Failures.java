package io.quackjvm.api.internal;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.WriteConflictException;

import java.sql.SQLException;

/**
 * Turns a DuckDB {@link SQLException} into the exception a user meets: a {@link WriteConflictException} for a
 * write that lost a race, an explained out-of-memory failure, or a {@link QuackException} naming what was being
 * done and the SQL that failed. It only classifies and words failures: it never retries, logs or rolls back.
 * Stateless.
 */
public final class Failures {

    private Failures() {
    }

    /**
     * Whether DuckDB's message means another transaction wrote the same rows at the same time: a conflict on a
     * row, a primary key that another transaction stored first (found by the insert, or at commit), or a
     * transaction that DuckDB's Appender aborted without an error of its own (it does that for such a key).
     * quackjvm's own writes look every key up in their transaction before they insert it, so a duplicate key
     * can only come from another writer.
     */
    private static boolean isConflict(String detail) {
        return detail.contains("Conflict on")
                || detail.contains("violates primary key constraint")
                || detail.contains("Failed to commit") && detail.contains("constraint violation")
                || detail.contains("Current transaction is aborted");
    }

    /** Whether a ROLLBACK or COMMIT failed only because no transaction was open on the connection. */
    static boolean isNoTransaction(SQLException e) {
        return String.valueOf(e.getMessage()).contains("no transaction is active");
    }

    /** Wraps a DuckDB failure, naming what was being done and the statement that failed. */
    public static QuackException wrap(String action, String sql, SQLException cause) {
        String detail = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        if (isConflict(detail)) {
            return new WriteConflictException(action + " failed because another transaction wrote the same row at "
                    + "the same time (" + detail + "); the whole write was rolled back and may be retried. Keep serializeWrites(true) "
                    + "when writers may touch the same primary key." + (sql == null ? "" : " SQL: " + sql), cause);
        }
        // DuckDB's words for it; an Appender's error leaves out the first and keeps the advice.
        if (detail.contains("Out of Memory Error") || detail.contains("Increasing the memory limit")) {
            return new QuackException(MemoryLimit.explainOutOfMemory(action, detail, sql), cause);
        }
        return new QuackException(action + " failed: " + detail + (sql == null ? "" : " SQL: " + sql), cause);
    }
}
