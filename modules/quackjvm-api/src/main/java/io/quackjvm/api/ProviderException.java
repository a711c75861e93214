package io.quackjvm.api;

/**
 * No usable provider of a kind was found, several claimed the same name, or one failed to load. The message
 * lists every candidate found and why each was rejected.
 */
public class ProviderException extends QuackException {

    private static final long serialVersionUID = 1L;

    public ProviderException(String message) {
        super(message);
    }

    public ProviderException(String message, Throwable cause) {
        super(message, cause);
    }
}
