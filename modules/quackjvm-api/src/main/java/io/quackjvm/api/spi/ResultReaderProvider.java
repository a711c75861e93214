package io.quackjvm.api.spi;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Reads the rows of a DuckDB query result for the engine.
 *
 * <p>Shipped providers: {@code "jdbc"} (JDBC getters; always usable) and {@code "arrow"} (Arrow batches;
 * usable when Arrow is on the module or class path and {@code java.nio} is opened to it). The engine picks a
 * reader per call: small results such as a primary-key lookup always go through a reader with
 * {@link #bulk()} false, large ones through the first usable bulk reader.
 */
public interface ResultReaderProvider extends Provider {

    /** {@code true} for a reader that pays a set-up cost per query to read large results faster. */
    boolean bulk();

    /**
     * Why this reader cannot be used in this JVM, or empty when it can. Called once; must not throw.
     */
    Optional<String> unavailableReason();

    /** Opens a cursor over an executed query's result set. The cursor does not close {@code resultSet}. */
    RowCursor open(ResultSet resultSet) throws SQLException;

    /**
     * The JVM flag this reader needs to be usable, in the form that fits how it was loaded (a named module or the
     * class path), or empty when it needs none. {@code ArrowSupport.getRequiredJvmFlag()} reports the flag of the
     * bulk reader, so that an application can tell its users what to add. Must not throw.
     */
    default Optional<String> requiredJvmFlag() {
        return Optional.empty();
    }
}
