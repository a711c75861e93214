package io.quackjvm.api.internal.database;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.WriteConflictException;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.List;
import java.util.Locale;

/**
 * The one place where a DuckDB {@link SQLException} is classified, and where it becomes the exception a user
 * meets: a {@link WriteConflictException} for a write that lost a race, an explained out-of-memory failure, or a
 * {@link QuackException} naming what was being done and the SQL that failed. It only classifies and words
 * failures: it never retries, logs or rolls back. Stateless.
 *
 * <p>DuckDB's JDBC driver (1.5.6.0) gives no SQLState and no vendor code: its one structured signal is the
 * exception's class ({@link SQLTimeoutException} for an interrupted statement). Everything else is read from the
 * message, which starts with DuckDB's error type ({@code "Constraint Error: "}, {@code "TransactionContext Error:
 * "}...), by the one table {@link #MESSAGES}. Each row is provoked on the shipped driver by a test, so a driver
 * whose words change fails that test.
 */
public final class Failures {

    /** What a DuckDB failure means to the engine. */
    enum Kind {
        /** Another transaction changed the same row ("Conflict on update!"). */
        WRITE_CONFLICT,
        /** A primary key stored twice: by the statement, by the Appender, or found at commit. */
        DUPLICATE_KEY,
        /** The transaction was aborted by an earlier failure (the Appender aborts it on a duplicate key). */
        TRANSACTION_ABORTED,
        /** A COMMIT or ROLLBACK with no transaction open on the connection. */
        NO_TRANSACTION,
        /** DuckDB ran out of memory within its memory limit. */
        OUT_OF_MEMORY,
        /** Another process holds the database file's lock. */
        FILE_LOCKED,
        /** The statement was interrupted (cancelled). */
        INTERRUPTED,
        /** Anything else. */
        OTHER
    }

    /**
     * One row of the table: DuckDB's error type (the words before {@code " Error: "} at the start of the message),
     * or {@code null} for a message the driver gives without one (the Appender's), and a phrase of the message. A
     * row of one type never matches a message of another, so a message that quotes DuckDB's words for another
     * failure (a column named so, in a Binder Error) is not taken for it.
     */
    private record Rule(String type, String phrase, Kind kind) {
    }

    /** Every DuckDB message the engine reads, first match wins. */
    private static final List<Rule> MESSAGES = List.of(
            new Rule("TransactionContext", "Conflict on ", Kind.WRITE_CONFLICT),
            new Rule("TransactionContext", "Failed to commit: PRIMARY KEY or UNIQUE constraint violation: "
                    + "duplicate key ", Kind.DUPLICATE_KEY),
            new Rule("TransactionContext", "Current transaction is aborted", Kind.TRANSACTION_ABORTED),
            new Rule("TransactionContext", "no transaction is active", Kind.NO_TRANSACTION),
            new Rule("Constraint", "violates primary key constraint", Kind.DUPLICATE_KEY),
            new Rule("Out of Memory", "", Kind.OUT_OF_MEMORY),
            new Rule("IO", "Could not set lock on file", Kind.FILE_LOCKED),
            new Rule("INTERRUPT", "", Kind.INTERRUPTED),
            new Rule(null, "Failed to append: Duplicate key ", Kind.DUPLICATE_KEY),
            new Rule(null, "Failed to append: PRIMARY KEY or UNIQUE constraint violation: duplicate key ",
                    Kind.DUPLICATE_KEY),
            new Rule(null, "Increasing the memory limit", Kind.OUT_OF_MEMORY));

    /**
     * The driver's prefix of an error raised by a pending query; DuckDB's own message, with its error type, follows
     * it.
     */
    private static final String PENDING = "\nError: ";

    private Failures() {
    }

    /** What {@code e} means: by its class where the driver gives one, otherwise by {@link #MESSAGES}. */
    static Kind kind(SQLException e) {
        if (e instanceof SQLTimeoutException) {
            return Kind.INTERRUPTED;
        }
        String message = duckdbMessage(e);
        String type = errorType(message);
        for (Rule r : MESSAGES) {
            if (java.util.Objects.equals(r.type(), type) && message.contains(r.phrase())) {
                return r.kind();
            }
        }
        return Kind.OTHER;
    }

    /** DuckDB's own message: after the driver's prefix of a pending query's failure, when there is one. */
    private static String duckdbMessage(SQLException e) {
        String m = String.valueOf(e.getMessage());
        int at = m.lastIndexOf(PENDING);
        return at < 0 ? m : m.substring(at + PENDING.length());
    }

    /** DuckDB's error type at the start of {@code message} ("Constraint" of "Constraint Error: ..."), or null. */
    private static String errorType(String message) {
        int end = message.indexOf(" Error: ");
        if (end <= 0) {
            return null;
        }
        String type = message.substring(0, end);
        for (int i = 0; i < type.length(); i++) {
            char c = type.charAt(i);
            if (!Character.isLetter(c) && c != ' ') {
                return null;
            }
        }
        return type;
    }

    /** Whether a ROLLBACK or COMMIT failed only because no transaction was open on the connection. */
    public static boolean isNoTransaction(SQLException e) {
        return kind(e) == Kind.NO_TRANSACTION;
    }

    /** Whether DuckDB refused a key that is stored already, in whichever of its words. */
    public static boolean isDuplicateKey(SQLException e) {
        return kind(e) == Kind.DUPLICATE_KEY;
    }

    /** Whether another process holds the database file. */
    static boolean isFileLocked(SQLException e) {
        return kind(e) == Kind.FILE_LOCKED;
    }

    /**
     * The stored form of the key a {@link Kind#DUPLICATE_KEY} failure names ({@code 5} of {@code Duplicate key
     * "_key: 5"} or of {@code duplicate key "5"}), or {@code null} when the message names none.
     */
    public static String duplicateKey(SQLException e) {
        if (kind(e) != Kind.DUPLICATE_KEY) {
            return null;
        }
        String m = duckdbMessage(e);
        int at = m.toLowerCase(Locale.ROOT).indexOf("duplicate key \"");
        int end = at < 0 ? -1 : m.indexOf('"', at + 15);
        if (end < 0) {
            return null;
        }
        String key = m.substring(at + 15, end);
        int named = key.indexOf(": ");
        return named < 0 ? key : key.substring(named + 2);
    }

    /**
     * Whether the failure means another transaction wrote the same rows at the same time: a conflict on a row, a
     * primary key that another transaction stored first (found by the insert, or at commit), or a transaction that
     * DuckDB's Appender aborted without an error of its own (it does that for such a key). quackjvm's own writes
     * look every key up in their transaction before they insert it, so a duplicate key can only come from another
     * writer.
     */
    private static boolean isConflict(Kind kind) {
        return kind == Kind.WRITE_CONFLICT || kind == Kind.DUPLICATE_KEY || kind == Kind.TRANSACTION_ABORTED;
    }

    /** Wraps a DuckDB failure, naming what was being done and the statement that failed. */
    public static QuackException wrap(String action, String sql, SQLException cause) {
        String detail = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        Kind kind = kind(cause);
        if (kind == Kind.INTERRUPTED) {
            QuackException cancelled = Statements.cancellation(action, sql, cause);
            if (cancelled != null) {
                return cancelled;
            }
        }
        if (isConflict(kind)) {
            return new WriteConflictException(action + " failed because another transaction wrote the same row at "
                    + "the same time (" + detail + "); the whole write was rolled back and may be retried. Keep serializeWrites(true) "
                    + "when writers may touch the same primary key." + (sql == null ? "" : " SQL: " + sql), cause);
        }
        if (kind == Kind.OUT_OF_MEMORY) {
            return new QuackException(MemoryLimit.explainOutOfMemory(action, detail, sql), cause);
        }
        return new QuackException(action + " failed: " + detail + (sql == null ? "" : " SQL: " + sql), cause);
    }
}
