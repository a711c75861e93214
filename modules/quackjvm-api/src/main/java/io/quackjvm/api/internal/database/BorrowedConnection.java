package io.quackjvm.api.internal.database;

import io.quackjvm.api.spi.PooledConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A borrowed connection that keeps its database reachable for as long as it is in use: the {@code Database}'s cleaner
 * must never release a database while one of its statements runs, even when the caller's last reference to the
 * collection was the one whose method is running (the JIT may drop it before the method returns).
 */
final class BorrowedConnection implements PooledConnection {
    final PooledConnection lent;
    @SuppressWarnings({"unused", "FieldCanBeLocal"})
    private final Database keepAlive;

    BorrowedConnection(PooledConnection lent, Database keepAlive) {
        this.lent = lent;
        this.keepAlive = keepAlive;
    }

    @Override
    public Connection connection() {
        return lent.connection();
    }

    @Override
    public PreparedStatement prepare(String sql) throws SQLException {
        return lent.prepare(sql);
    }

    @Override
    public void recycle(PreparedStatement statement) {
        lent.recycle(statement);
    }

    @Override
    public void begin() throws SQLException {
        lent.begin();
    }

    @Override
    public void commit() throws SQLException {
        lent.commit();
    }

    @Override
    public void rollback() throws SQLException {
        lent.rollback();
    }

    @Override
    public void close() {
        lent.close();
    }

    /**
     * The pool's connection, counted while it is lent ({@link Database#poolStats}): returning it the first time
     * uncounts it. Refers to the counter only, not to the database.
     */
    static final class Counted implements PooledConnection {
        private final PooledConnection pooled;
        private final java.util.concurrent.atomic.AtomicInteger inUse;
        private final java.util.concurrent.atomic.AtomicBoolean returned = new java.util.concurrent.atomic.AtomicBoolean();

        Counted(PooledConnection pooled, java.util.concurrent.atomic.AtomicInteger inUse) {
            this.pooled = pooled;
            this.inUse = inUse;
            inUse.incrementAndGet();
        }

        @Override public Connection connection() { return pooled.connection(); }
        @Override public PreparedStatement prepare(String sql) throws SQLException { return pooled.prepare(sql); }
        @Override public void recycle(PreparedStatement statement) { pooled.recycle(statement); }
        @Override public void begin() throws SQLException { pooled.begin(); }
        @Override public void commit() throws SQLException { pooled.commit(); }
        @Override public void rollback() throws SQLException { pooled.rollback(); }

        @Override
        public void close() {
            if (returned.compareAndSet(false, true)) {
                inUse.decrementAndGet();
            }
            pooled.close();
        }
    }
}
