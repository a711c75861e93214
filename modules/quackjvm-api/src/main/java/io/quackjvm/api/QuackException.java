package io.quackjvm.api;

import java.sql.SQLException;

/**
 * The root of every exception quackjvm throws for a failure in the database or in its own set-up.
 * Unchecked, like the rest of CQEngine's API. A DuckDB {@link SQLException} is kept as the cause, and the SQL
 * that failed is part of the message.
 */
public class QuackException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A failure with a message that names the problem and the fix. */
    public QuackException(String message) {
        super(message);
    }

    /** A failure with a message that names the problem and the fix, caused by {@code cause}. */
    public QuackException(String message, Throwable cause) {
        super(message, cause);
    }
}
