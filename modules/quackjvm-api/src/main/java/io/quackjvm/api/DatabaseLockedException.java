package io.quackjvm.api;

import java.nio.file.Path;

/**
 * A database file could not be opened because another process (or another database object in this JVM) holds
 * it. DuckDB allows one writing process per file.
 */
public class DatabaseLockedException extends QuackException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public DatabaseLockedException(Path file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /** The file that could not be opened. */
    public Path getFile() {
        return file;
    }
}
