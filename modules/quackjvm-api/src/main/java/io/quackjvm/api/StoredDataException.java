package io.quackjvm.api;

/**
 * A stored row could not be turned back into an object, or an object could not be turned into a row: a class the
 * row names is not allowed, the bytes do not decode, or the class changed in a way the layout cannot follow. The
 * message names the class and what to do; the cause, where there is one, is the layout's own failure.
 */
public class StoredDataException extends QuackException {

    private static final long serialVersionUID = 1L;

    /** A failure with a message that names the class, the problem and the fix. */
    public StoredDataException(String message) {
        super(message);
    }

    /** A failure with a message that names the class, the problem and the fix, caused by {@code cause}. */
    public StoredDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
