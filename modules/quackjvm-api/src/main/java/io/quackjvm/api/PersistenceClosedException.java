package io.quackjvm.api;

/** A collection or persistence was used after {@code close()}. */
public class PersistenceClosedException extends QuackException {

    private static final long serialVersionUID = 1L;

    public PersistenceClosedException(String message) {
        super(message);
    }
}
