package io.quackjvm.testkit;

import io.quackjvm.api.spi.ConnectionInitializer;
import io.quackjvm.api.spi.ConnectionPool;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.PooledConnection;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of a {@link ConnectionPoolProvider}: its pools lend working connections to one database, never
 * the same one to two borrowers (not even after a {@link PooledConnection} was closed twice), never lend one
 * inside a transaction its previous borrower left open (also one opened by SQL {@code BEGIN}), keep at
 * most {@code maxPooled} idle, reuse prepared statements safely, are thread-safe, never close the root connection,
 * and run the {@link ConnectionInitializer} once on every connection they open, before lending it.
 */
public abstract class ConnectionPoolContract extends ProviderContract<ConnectionPoolProvider> {

    private static int one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getInt(1);
        }
    }

    @Test
    public void lendsConnectionsToTheRootsDatabase() throws Exception {
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 4, ConnectionInitializer.NONE)) {
            try (Statement s = root.createStatement()) {
                s.execute("CREATE TABLE contract_pool AS SELECT 7 AS v");
            }
            try (PooledConnection c = pool.borrow()) {
                assertEquals(7, one(c.connection(), "SELECT v FROM contract_pool"),
                        "A borrowed connection must see the root connection's database");
            }
        }
    }

    @Test
    public void neverLendsOneConnectionToTwoBorrowers() throws Exception {
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 4, ConnectionInitializer.NONE)) {
            try (PooledConnection a = pool.borrow(); PooledConnection b = pool.borrow()) {
                assertNotSame(a.connection(), b.connection(), "Two open borrows must get two connections");
                a.connection().setAutoCommit(false);
                try (Statement s = a.connection().createStatement()) {
                    s.execute("CREATE TABLE contract_private (v INTEGER)");
                }
                // b is outside a's transaction: a's uncommitted table is invisible to it.
                try (Statement s = b.connection().createStatement();
                     ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.tables "
                             + "WHERE table_name = 'contract_private'")) {
                    assertTrue(rs.next());
                    assertEquals(0, rs.getInt(1), "Borrowers must not share a transaction");
                }
                a.connection().rollback();
                a.connection().setAutoCommit(true);
            }
        }
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @Test
    public void closingABorrowedConnectionTwiceReturnsItOnce() throws Exception {
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 4, ConnectionInitializer.NONE)) {
            PooledConnection twice = pool.borrow();
            twice.close();
            twice.close();
            assertTrue(pool.idleCount() <= 1, "A connection closed twice was pooled " + pool.idleCount() + " times");
            try (PooledConnection a = pool.borrow(); PooledConnection b = pool.borrow()) {
                assertNotSame(a.connection(), b.connection(),
                        "A connection closed twice must not be lent to two borrowers at once");
                // The stale handle of the first borrow must not give back a connection lent to someone else.
                twice.close();
                try (PooledConnection c = pool.borrow()) {
                    assertNotSame(a.connection(), c.connection(), "A stale close() gave back a lent connection");
                    assertNotSame(b.connection(), c.connection(), "A stale close() gave back a lent connection");
                }
            }
        }
    }

    /**
     * Returns a connection inside a transaction that {@code begin} opened and wrote row 1 in, then checks that no
     * later borrower is lent that transaction: each can start one of its own, and the row is never committed.
     */
    private void returnedMidTransactionIsNotLentInIt(String how, SqlAction begin) throws Exception {
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 2, ConnectionInitializer.NONE)) {
            run(root, "CREATE TABLE contract_left_open (v INTEGER)");
            try (PooledConnection c = pool.borrow()) {
                begin.run(c);
            }
            for (int i = 0; i < 3; i++) {
                List<PooledConnection> borrowed = new ArrayList<>();
                try {
                    for (int j = 0; j < 2; j++) {
                        PooledConnection c = pool.borrow();
                        borrowed.add(c);
                        assertTrue(c.connection().getAutoCommit(), how + ": a connection was lent out of auto-commit");
                        run(c.connection(), "BEGIN TRANSACTION");
                        run(c.connection(), "INSERT INTO contract_left_open VALUES (2)");
                        run(c.connection(), "COMMIT");
                    }
                } finally {
                    borrowed.forEach(PooledConnection::close);
                }
            }
            assertEquals(0, one(root, "SELECT count(*) FROM contract_left_open WHERE v = 1"),
                    how + ": the row of a transaction left open was committed by a later borrower");
            assertEquals(6, one(root, "SELECT count(*) FROM contract_left_open WHERE v = 2"));
        }
    }

    /** Statements run on a borrowed connection. */
    private interface SqlAction {
        void run(PooledConnection c) throws SQLException;
    }

    @Test
    public void aConnectionReturnedInsideASqlTransactionIsNotLentInIt() throws Exception {
        returnedMidTransactionIsNotLentInIt("BEGIN TRANSACTION", c -> {
            run(c.connection(), "BEGIN TRANSACTION");
            run(c.connection(), "INSERT INTO contract_left_open VALUES (1)");
        });
    }

    @Test
    public void aConnectionReturnedInsideATransactionBegunByAPreparedStatementIsNotLentInIt() throws Exception {
        returnedMidTransactionIsNotLentInIt("a prepared BEGIN TRANSACTION", c -> {
            for (String sql : List.of("BEGIN TRANSACTION", "INSERT INTO contract_left_open VALUES (1)")) {
                PreparedStatement ps = c.prepare(sql);
                ps.execute();
                c.recycle(ps);
            }
        });
    }

    @Test
    public void aConnectionReturnedInsideATransactionOfItsBeginMethodIsNotLentInIt() throws Exception {
        returnedMidTransactionIsNotLentInIt("PooledConnection.begin()", c -> {
            c.begin();
            PreparedStatement ps = c.prepare("INSERT INTO contract_left_open VALUES (1)");
            ps.execute();
            c.recycle(ps);
        });
    }

    @Test
    public void aTransactionEndedThroughItsMethodsLeavesTheConnectionReusable() throws Exception {
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 1, ConnectionInitializer.NONE)) {
            run(root, "CREATE TABLE contract_ended (v INTEGER)");
            for (int i = 0; i < 3; i++) {
                try (PooledConnection c = pool.borrow()) {
                    c.begin();
                    PreparedStatement ps = c.prepare("INSERT INTO contract_ended VALUES (" + i + ")");
                    ps.execute();
                    c.recycle(ps);
                    if (i == 1) {
                        c.rollback();
                    } else {
                        c.commit();
                    }
                }
                try (PooledConnection c = pool.borrow()) {
                    c.begin(); // fails if the pool lent a connection still inside a transaction
                    c.rollback();
                }
            }
            assertEquals(2, one(root, "SELECT count(*) FROM contract_ended"), "the committed rows, not the rolled back");
        }
    }

    @Test
    public void aConnectionReturnedInsideAnAbortedTransactionIsNotLentInIt() throws Exception {
        returnedMidTransactionIsNotLentInIt("an aborted transaction", pooled -> {
            Connection c = pooled.connection();
            run(c, "CREATE TEMP TABLE contract_unique (v INTEGER PRIMARY KEY)");
            run(c, "BEGIN TRANSACTION");
            run(c, "INSERT INTO contract_left_open VALUES (1)");
            run(c, "INSERT INTO contract_unique VALUES (1)");
            // The duplicate key aborts the transaction; it stays open until a ROLLBACK.
            assertThrows(SQLException.class, () -> run(c, "INSERT INTO contract_unique VALUES (1)"));
        });
    }

    @Test
    public void keepsAtMostMaxPooledIdleConnections() throws Exception {
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 2, ConnectionInitializer.NONE)) {
            List<PooledConnection> borrowed = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                borrowed.add(pool.borrow());
            }
            borrowed.forEach(PooledConnection::close);
            assertTrue(pool.idleCount() <= 2, "idleCount " + pool.idleCount() + " exceeds maxPooled 2");
        }
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 0, ConnectionInitializer.NONE)) {
            PooledConnection c = pool.borrow();
            c.close();
            assertEquals(0, pool.idleCount(), "maxPooled 0 must keep no idle connection");
        }
    }

    @Test
    public void recycledStatementsCanBePreparedAgain() throws Exception {
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 2, ConnectionInitializer.NONE)) {
            for (int round = 0; round < 3; round++) {
                try (PooledConnection c = pool.borrow()) {
                    PreparedStatement ps = c.prepare("SELECT ? + 1");
                    ps.setInt(1, round);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(round + 1, rs.getInt(1));
                    }
                    c.recycle(ps);
                }
            }
        }
    }

    @Test
    public void closingThePoolLeavesTheRootOpenAndClosesLateReturns() throws Exception {
        try (Connection root = Scratch.open()) {
            ConnectionPool pool = provider().create(root, 2, ConnectionInitializer.NONE);
            PooledConnection idle = pool.borrow();
            idle.close();
            PooledConnection late = pool.borrow();
            pool.close();
            assertFalse(root.isClosed(), "Closing a pool must not close the root connection");
            assertEquals(1, one(root, "SELECT 1"));
            late.close();
            assertTrue(late.connection().isClosed(), "A connection returned after the pool closed must be closed");
            assertEquals(0, pool.idleCount());
        }
    }

    @Test
    public void borrowingIsThreadSafe() throws Exception {
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 3, ConnectionInitializer.NONE)) {
            ExecutorService threads = Executors.newFixedThreadPool(6);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    int id = t;
                    results.add(threads.submit(() -> {
                        int sum = 0;
                        for (int i = 0; i < 50; i++) {
                            try (PooledConnection c = pool.borrow()) {
                                sum += one(c.connection(), "SELECT " + id);
                            }
                        }
                        return sum;
                    }));
                }
                for (int t = 0; t < 6; t++) {
                    assertEquals(50 * t, results.get(t).get(), "Each borrower must read its own answers");
                }
            } finally {
                threads.shutdownNow();
            }
            assertTrue(pool.idleCount() <= 3, "idleCount " + pool.idleCount() + " exceeds maxPooled 3");
        }
    }

    @Test
    public void runsTheInitializerOncePerConnectionBeforeLendingIt() throws Exception {
        Map<Connection, Integer> runs = Collections.synchronizedMap(new IdentityHashMap<>());
        // A temporary table lives on one connection: creating it twice on one connection fails, and a borrower
        // can see it only when the initializer ran on the connection it was lent.
        ConnectionInitializer initializer = c -> {
            runs.merge(c, 1, Integer::sum);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TEMP TABLE contract_initialized AS SELECT 11 AS v");
            }
        };
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 2, initializer)) {
            for (int round = 0; round < 3; round++) {
                List<PooledConnection> borrowed = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    PooledConnection c = pool.borrow();
                    borrowed.add(c);
                    assertEquals(11, one(c.connection(), "SELECT v FROM contract_initialized"),
                            "A lent connection must have been through the initializer");
                }
                borrowed.forEach(PooledConnection::close);
            }
            assertFalse(runs.isEmpty(), "The initializer never ran");
            assertFalse(runs.containsKey(root), "The initializer must not run on the root connection");
            for (Map.Entry<Connection, Integer> e : runs.entrySet()) {
                assertEquals(1, e.getValue(), "The initializer ran " + e.getValue() + " times on one connection");
            }
        }
    }

    @Test
    public void aFailingInitializerFailsTheBorrowAndClosesTheConnection() throws Exception {
        List<Connection> seen = Collections.synchronizedList(new ArrayList<>());
        SQLException failure = new SQLException("contract: initializer refused");
        ConnectionInitializer initializer = c -> {
            seen.add(c);
            throw failure;
        };
        try (Connection root = Scratch.open(); ConnectionPool pool = provider().create(root, 2, initializer)) {
            SQLException thrown = assertThrows(SQLException.class, pool::borrow,
                    "borrow() must fail when the initializer fails");
            assertSame(failure, thrown, "borrow() must throw the initializer's exception");
            assertEquals(1, seen.size());
            assertTrue(seen.get(0).isClosed(), "A connection whose initializer failed must be closed");
            assertFalse(root.isClosed(), "A failing initializer must not close the root connection");
            assertEquals(0, pool.idleCount(), "A connection whose initializer failed must not be pooled");
        }
    }
}
