package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompactTest {

    private static final int N = 10_000;

    @TempDir
    Path dir;

    /**
     * Ten rounds of removing every object, adding it back and compacting a constant set: before compact() rewrote
     * the tables the file grew by about one copy of the objects per round (DuckDB keeps the deleted rows of a
     * table with a primary key): with 30k objects, 8.7 MB after the first round and 35.9 MB after the tenth. After
     * each compact() the file must be back near the size of the freshly loaded, compacted file.
     */
    @Test
    void repeatedRemoveAddCompactKeepsTheFileBoundedAndTheDataIntact() throws Exception {
        Path file = dir.resolve("compact.duckdb");
        List<Car> cars = Car.firstN(N);
        long fresh;
        long largest = 0;
        List<Long> sizes = new ArrayList<>();
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
            coll.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            coll.addIndex(DuckDBIndex.onAttributeWithArtIndex(Car.PRICE));
            coll.addAll(cars);
            // Pooled connections now hold prepared statements for these queries; they must survive the rewrites.
            checkQueries(coll);
            p.compact();
            fresh = Files.size(file) + walSize(file);
            for (int round = 1; round <= 10; round++) {
                assertTrue(coll.removeAll(cars));
                assertEquals(0, coll.size());
                assertTrue(coll.addAll(cars));
                p.compact();
                checkQueries(coll);
                long size = Files.size(file) + walSize(file);
                sizes.add(size);
                largest = Math.max(largest, size);
            }
            assertTrue(largest <= fresh * 3 / 2, "the file grew from " + fresh + " bytes when freshly loaded to "
                    + largest + " bytes: " + sizes);
            assertEquals(N, coll.size());
        }
        // Everything acknowledged is in the file after reopening, and the indexes answer from it.
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
            coll.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            coll.addIndex(DuckDBIndex.onAttributeWithArtIndex(Car.PRICE));
            assertEquals(new HashSet<>(cars), toSet(coll.retrieve(all(Car.class))));
            checkQueries(coll);
        }
    }

    @Test
    void compactKeepsOpenReadersAndLaterWritesWorking() {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(dir.resolve("r.duckdb")).build()) {
            IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
            coll.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            List<Car> cars = Car.firstN(50_000);
            coll.addAll(cars);
            coll.removeAll(cars.subList(0, 25_000));
            Set<Car> seen = new HashSet<>();
            try (ResultSet<Car> open = coll.retrieve(all(Car.class))) {
                Iterator<Car> it = open.iterator();
                seen.add(it.next());
                p.compact();
                it.forEachRemaining(seen::add);
            }
            assertEquals(new HashSet<>(cars.subList(25_000, 50_000)), seen, "a reader open across compact() sees its snapshot");
            coll.add(Car.of(1));                // a Honda
            coll.remove(Car.of(49_999));        // a Tesla
            assertEquals(25_000, coll.size());
            assertEquals(Set.of(Car.of(1)), toSet(coll.retrieve(equal(Car.CAR_ID, 1))));
            assertEquals(5_001, toSet(coll.retrieve(equal(Car.MANUFACTURER, "Honda"))).size());
            p.compact();                        // with the reader closed the checkpoint runs
            assertEquals(25_000, coll.size());
            assertEquals(5_001, toSet(coll.retrieve(equal(Car.MANUFACTURER, "Honda"))).size());
        }
    }

    private static void checkQueries(IndexedCollection<Car> coll) {
        assertEquals(N, coll.size());
        assertEquals(Set.of(Car.of(7)), toSet(coll.retrieve(equal(Car.CAR_ID, 7))));
        Set<Car> honda = toSet(coll.retrieve(equal(Car.MANUFACTURER, "Honda")));
        assertEquals(N / 5, honda.size());
        assertTrue(honda.stream().allMatch(c -> c.manufacturer().equals("Honda")));
        Set<Car> cheap = toSet(coll.retrieve(between(Car.PRICE, 5000.0, 5100.0)));
        long expected = 0;
        for (int i = 0; i < N; i++) {
            double price = Car.of(i).price();
            if (price >= 5000.0 && price <= 5100.0) {
                expected++;
            }
        }
        assertEquals(expected, cheap.size());
        assertTrue(coll.contains(Car.of(N - 1)));
    }

    private static Set<Car> toSet(ResultSet<Car> rs) {
        try (rs) {
            Set<Car> out = new HashSet<>();
            rs.forEach(out::add);
            return out;
        }
    }

    private static long walSize(Path file) throws Exception {
        Path wal = Path.of(file + ".wal");
        return Files.exists(wal) ? Files.size(wal) : 0;
    }
}
