package io.quackjvm.api.spi;

import java.sql.Connection;

/**
 * Creates the connection pool of a database. The shipped provider is {@code "duplicating"}: connections are
 * {@code duplicate()}s of the root connection, up to {@code maxPooled} kept open between requests.
 */
public interface ConnectionPoolProvider extends Provider {

    /**
     * @param root        the database's root connection; the pool must not close it
     * @param maxPooled   how many idle connections to keep (0 keeps none)
     * @param initializer run once on every connection the pool opens, before it is first lent (see
     *                    {@link ConnectionInitializer}); never on {@code root}
     */
    ConnectionPool create(Connection root, int maxPooled, ConnectionInitializer initializer);
}
