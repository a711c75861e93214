package io.quackjvm.concurrency;

import io.quackjvm.api.spi.ConnectionInitializer;
import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.ConnectionPoolProvider;

import java.sql.Connection;

/**
 * The {@code "duplicating"} pool: request connections are {@code duplicate()}s of the root connection, kept
 * open between requests with their prepared statements. DuckDB's {@code duplicate()} takes the root
 * connection's lock, so unpooled borrowing serialises every request against every other.
 */
public final class DuplicatingPoolProvider implements ConnectionPoolProvider {

    @Override
    public String name() {
        return "duplicating";
    }

    @Override
    public ConnectionPool create(Connection root, int maxPooled, ConnectionInitializer initializer) {
        return new DuplicatingPool(root, maxPooled, initializer);
    }
}
