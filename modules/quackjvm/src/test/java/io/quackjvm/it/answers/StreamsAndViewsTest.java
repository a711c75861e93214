package io.quackjvm.it.answers;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.PersistenceClosedException;
import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Streams release their connection when closed or exhausted; the SQL views follow the collections' indexes. */
class StreamsAndViewsTest {

    @TempDir
    Path dir;

    record IdPrice(int id, double price) { }

    @Test
    void aStreamClosedEarlyOrExhaustedReleasesItsConnection() {
        List<Sale> objects = Sale.random(5000, 3);
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("s.duckdb")).build()) {
            IndexedCollection<Sale> sales = AggregatesTest.sales(db, "blob");
            sales.addAll(objects);
            for (int round = 0; round < 40; round++) {
                try (Stream<IdPrice> s = db.query("SELECT id, price FROM sale ORDER BY id").stream(IdPrice.class)) {
                    Iterator<IdPrice> it = s.iterator();
                    assertEquals(new IdPrice(0, objects.get(0).price()), it.next());
                    it.next();
                }
            }
            // exhausted without close
            Stream<IdPrice> all = db.query("SELECT id, price FROM sale WHERE id < ?", 100).stream(IdPrice.class);
            assertEquals(100, all.count());
            sales.removeAll(objects.subList(0, 2500));
            db.compact();
            assertEquals(2500L, db.query("SELECT count(*) FROM sale").scalar(Long.class));
            assertEquals(2500L, db.from(sales).count());
        }
    }

    @Test
    void aStreamStillOpenAtCloseIsReleasedAndThenFails() {
        DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("c.duckdb")).build();
        IndexedCollection<Sale> sales = AggregatesTest.sales(db, "columnar");
        sales.addAll(Sale.random(3000, 3));
        Stream<Integer> open = db.query("SELECT id FROM sale").stream(Integer.class);
        Iterator<Integer> it = open.iterator();
        it.next();
        db.close();
        assertThrows(PersistenceClosedException.class, () -> {
            while (it.hasNext()) {
                it.next();
            }
        });
        // the file was released: it opens again
        try (DuckDBDatabase again = DuckDBDatabase.builder().file(dir.resolve("c.duckdb")).build()) {
            IndexedCollection<Sale> reopened = AggregatesTest.sales(again, "columnar");
            assertEquals(3000, reopened.size());
            assertEquals(3000L, again.query("SELECT count(*) FROM sale").scalar(Long.class));
        }
    }

    @Test
    void theViewsFollowIndexesAndCollections() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = AggregatesTest.sales(db, "blob");
            List<Sale> objects = Sale.random(500, 5);
            sales.addAll(objects);
            assertThrows(QuackException.class, () -> db.query("SELECT count(*) FROM sale WHERE doors = 3")
                    .scalar(Long.class));
            DuckDBIndex<Integer, Sale> doors = DuckDBIndex.onAttribute(Sale.DOORS);
            sales.addIndex(doors);
            assertEquals(objects.stream().filter(s -> s.doors() == 3).count(),
                    db.query("SELECT count(*) FROM sale WHERE doors = 3").scalar(Long.class));
            assertTrue(db.describe().contains("sql sale: id INTEGER, maker VARCHAR, price DOUBLE, tags VARCHAR[], "
                    + "doors INTEGER"), db.describe());
            sales.removeIndex(doors);
            assertThrows(QuackException.class, () -> db.query("SELECT count(*) FROM sale WHERE doors = 3")
                    .scalar(Long.class));
            // a second collection appears, and the physical tables stay hidden behind the views
            IndexedCollection<Sale> more = db.collection(Sale.ID).name("more_sales")
                    .columnarLayout(io.quackjvm.api.ColumnarLayout.ofRecord(Sale.class)).build();
            more.addAll(objects.subList(0, 10));
            assertEquals(10L, db.query("SELECT count(*) FROM sale s JOIN more_sales m ON m.id = s.id AND "
                    + "m.maker = s.maker").scalar(Long.class));
            String described = db.describe();
            assertTrue(described.contains("sql more_sales: id INTEGER, maker VARCHAR, price DOUBLE, doors INTEGER, "
                    + "tags VARCHAR[]"), described);
            // the collections' own writes and retrievals are untouched by the views
            sales.add(new Sale(9999, "Ford", 1.0, 2, List.of()));
            assertEquals(501, sales.size());
            assertEquals(501L, db.query("SELECT count(*) FROM sale").scalar(Long.class));
        }
    }
}
