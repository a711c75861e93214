package io.quackjvm.api;

/**
 * A write lost a race with a concurrent write to the same row and was rolled back whole. Only happens with
 * {@code serializeWrites(false)}; retrying the write is safe.
 */
public class WriteConflictException extends QuackException {

    private static final long serialVersionUID = 1L;

    public WriteConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
