package io.quackjvm.api.spi;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Prepares a new connection of a pool before it is first lent, for example by switching it to the database file
 * the engine attached ({@code USE quackjvm}). A {@link ConnectionPool} runs it exactly once per connection it
 * opens, never again when the connection is lent a second time; when it throws, the pool closes that connection
 * and {@link ConnectionPool#borrow()} fails with the exception. Must be thread-safe: pools run it from the
 * borrowing thread.
 */
@FunctionalInterface
public interface ConnectionInitializer {

    /** Does nothing: for a database whose connections need no preparation. */
    ConnectionInitializer NONE = connection -> { };

    /** Prepares {@code connection}, which is new and not yet lent to anyone. */
    void initialize(Connection connection) throws SQLException;
}
