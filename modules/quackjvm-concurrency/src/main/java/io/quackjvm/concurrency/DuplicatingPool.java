package io.quackjvm.concurrency;

import io.quackjvm.api.spi.ConnectionInitializer;
import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.PooledConnection;
import org.duckdb.DuckDBConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/** A lock-free stack of idle duplicated connections. Thread-safe. */
final class DuplicatingPool implements ConnectionPool {

    private static final Logger LOG = LoggerFactory.getLogger(DuplicatingPool.class);

    private final DuckDBConnection root;
    private final int maxPooled;
    private final ConnectionInitializer initializer;
    private final ConcurrentLinkedDeque<Lease> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger idleCount = new AtomicInteger();
    private volatile boolean closed;

    DuplicatingPool(Connection root, int maxPooled, ConnectionInitializer initializer) {
        try {
            this.root = root.unwrap(DuckDBConnection.class);
        } catch (SQLException e) {
            throw new IllegalArgumentException("The duplicating pool needs a DuckDB connection, not " + root, e);
        }
        this.maxPooled = maxPooled;
        this.initializer = initializer;
    }

    @Override
    public PooledConnection borrow() throws SQLException {
        Lease lease = idle.pollFirst();
        if (lease != null) {
            idleCount.decrementAndGet();
            return new Loan(lease);
        }
        if (closed) {
            throw new SQLException("The connection pool is closed");
        }
        Connection fresh = root.duplicate();
        try {
            // Once per connection: a pooled lease keeps what it was prepared with.
            initializer.initialize(fresh);
        } catch (SQLException | RuntimeException e) {
            try {
                fresh.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new Loan(new Lease(this, fresh));
    }

    /** Pools a returned connection, or closes it when the pool is full or closed or the connection is unusable. */
    void giveBack(Lease lease) {
        boolean healthy = !closed && lease.reset();
        if (healthy && !closed && idleCount.incrementAndGet() <= maxPooled) {
            idle.offerFirst(lease);
            if (closed && idle.remove(lease)) {
                idleCount.decrementAndGet();
                lease.closeNow();
            }
            return;
        }
        if (healthy && !closed) {
            idleCount.decrementAndGet();
        }
        lease.closeNow();
    }

    @Override
    public int idleCount() {
        return Math.max(0, idleCount.get());
    }

    @Override
    public void close() {
        closed = true;
        Lease lease;
        while ((lease = idle.pollFirst()) != null) {
            idleCount.decrementAndGet();
            lease.closeNow();
        }
        LOG.debug("Connection pool closed");
    }
}
