package io.quackjvm.it.answers;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.Aggregates;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.QueryResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.matchesRegex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the query API refuses, and the words it uses. */
class RefusalsTest {

    static void assertMessage(Class<? extends Throwable> type, Executable call, String... parts) {
        Throwable e = assertThrows(type, call);
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), "'" + p + "' not in: " + e.getMessage());
        }
    }

    @Test
    void onlyOneReadPerCallAndNothingRunsBeforeTheRefusal() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = AggregatesTest.sales(db, "blob");
            sales.addAll(Sale.random(20, 1));
            assertMessage(QuackException.class, () -> db.query("DROP TABLE sale; SELECT 1"),
                    "refused", "not one", "SQL: DROP TABLE sale; SELECT 1");
            assertMessage(QuackException.class, () -> db.query("SELECT 1; SELECT 2").scalar(Integer.class),
                    "exactly one statement", "holds 2");
            for (String write : List.of("INSERT INTO sale SELECT * FROM sale", "DELETE FROM sale",
                    "UPDATE sale SET maker = 'x'", "CREATE TABLE x AS SELECT 1", "DROP TABLE sale",
                    "COPY sale TO 'x.csv'", "SET threads = 1", "ATTACH ':memory:' AS other", "CHECKPOINT",
                    "PRAGMA database_size", "CALL pragma_version()")) {
                assertMessage(QuackException.class, () -> db.query(write), "refused", write);
            }
            assertEquals(20, sales.size());
            assertEquals(20L, db.query("SELECT count(*) FROM sale").scalar(Long.class));
            assertEquals(20L, db.query("SELECT id FROM sale; -- all of them").count());
        }
    }

    @Test
    void aFailedQueryQuotingDuckDBsWordsForAConflictIsNoConflict() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = AggregatesTest.sales(db, "blob");
            sales.addAll(Sale.random(5, 1));
            for (String column : List.of("Conflict on tuple", "Out of Memory Error: Increasing the memory limit")) {
                String sql = "SELECT \"" + column + "\" FROM sale";
                QuackException e = assertThrows(QuackException.class, () -> db.query(sql).list(Object.class));
                assertEquals(QuackException.class, e.getClass(), e.getMessage());
                assertTrue(e.getMessage().startsWith("Running the query failed: Binder Error"), e.getMessage());
            }
        }
    }

    @Test
    void sqlErrorsCarryDuckDBsMessageAndTheSql() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = AggregatesTest.sales(db, "blob");
            sales.addAll(Sale.random(20, 1));
            assertMessage(QuackException.class, () -> db.query("SELEC 1"), "syntax error", "SQL: SELEC 1");
            assertMessage(QuackException.class, () -> db.query("SELECT nosuch FROM sale").list(Object.class),
                    "nosuch", "SQL: SELECT nosuch FROM sale");
            assertMessage(QuackException.class, () -> db.query("SELECT doors FROM sale").list(Object.class),
                    "doors", "SQL: SELECT doors FROM sale");
            assertMessage(QuackException.class, () -> db.query("SELECT 1/0::INTEGER + 'a'::INTEGER").scalar(Long.class),
                    "SQL: SELECT 1/0::INTEGER");
            assertMessage(QuackException.class, () -> db.query("SELECT id FROM sale").scalar(Integer.class),
                    "one row", "more than one");
            assertMessage(QuackException.class, () -> db.query("SELECT id FROM sale WHERE id < 0").scalar(Integer.class),
                    "one row", "none");
            assertMessage(QuackException.class, () -> db.query("SELECT id, maker FROM sale").scalar(Integer.class),
                    "one column", "2");
            record Named(int id, String colour) { }
            assertMessage(QuackException.class, () -> db.query("SELECT id, maker FROM sale").records(Named.class),
                    "component 'colour'", "[id, maker]");
            record Wrong(int id, long maker) { }
            assertMessage(QuackException.class, () -> db.query("SELECT id, maker FROM sale").records(Wrong.class),
                    "Column 'maker'", "long");
            assertMessage(QuackException.class, () -> db.query("SELECT 2.5 AS n").scalar(Long.class), "Column 'n'");
            assertEquals(3L, db.query("SELECT 3.0 AS n").scalar(Long.class));
            // parameters are bound, never concatenated
            assertEquals(0L, db.query("SELECT count(*) FROM sale WHERE maker = ?", "x' OR 1=1 --").scalar(Long.class));
        }
    }

    @Test
    void attributesSqlCannotSeeAndQueriesItCannotTranslateAreNamed() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = AggregatesTest.sales(db, "blob");
            sales.addAll(Sale.random(20, 1));
            Aggregates<Sale> a = db.from(sales);
            assertMessage(QuackException.class, () -> a.sum(Sale.DOORS), "'doors'", "DuckDBIndex", "addIndex");
            assertMessage(QuackException.class, () -> a.groupBy(Sale.DOORS), "'doors'", "DuckDBIndex");
            assertMessage(QuackException.class, () -> a.groupBy(Sale.MAKER).avg(Sale.DOORS), "'doors'");
            assertMessage(QuackException.class, () -> a.where(equal(Sale.DOORS, 3)), "doors");
            assertMessage(QuackException.class, () -> a.where(matchesRegex(Sale.MAKER, "F.*")), "cannot be answered");
            assertMessage(IllegalArgumentException.class, () -> a.quantile(Sale.PRICE, 1.5), "between 0 and 1");
            // once indexed, the same call works
            sales.addIndex(DuckDBIndex.onAttribute(Sale.DOORS));
            assertEquals(Sale.random(20, 1).stream().mapToDouble(Sale::doors).sum(), a.sum(Sale.DOORS));
            try (DuckDBDatabase other = DuckDBDatabase.builder().build()) {
                assertMessage(IllegalArgumentException.class, () -> other.from(sales), "another DuckDBDatabase");
            }
        }
    }

    @Test
    void aClosedDatabaseIsRefused() {
        DuckDBDatabase db = DuckDBDatabase.builder().build();
        IndexedCollection<Sale> sales = AggregatesTest.sales(db, "columnar");
        sales.addAll(Sale.random(20, 1));
        Aggregates<Sale> a = db.from(sales);
        QueryResult q = db.query("SELECT count(*) FROM sale");
        assertEquals(20L, q.scalar(Long.class));
        db.close();
        assertThrows(PersistenceClosedException.class, () -> db.query("SELECT 1"));
        assertThrows(PersistenceClosedException.class, () -> db.from(sales));
        assertThrows(PersistenceClosedException.class, () -> q.scalar(Long.class));
        assertThrows(PersistenceClosedException.class, a::count);
        assertThrows(PersistenceClosedException.class, () -> a.groupBy(Sale.MAKER).count());
    }
}
