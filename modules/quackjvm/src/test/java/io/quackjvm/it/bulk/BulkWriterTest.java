package io.quackjvm.it.bulk;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBFlags;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.Progress;
import io.quackjvm.api.QuackException;
import io.quackjvm.it.Car;
import io.quackjvm.it.Parked;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.enableFlags;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.queryOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bulk writer, BULK_IMPORT and progress, through the whole stack (real DuckDB, real CQEngine collections). */
class BulkWriterTest {

    private static final int CHUNK = 64;
    private static final String[] MAKERS = {"Ford", "Honda", "Toyota", "BMW", "Tesla"};

    @TempDir
    Path dir;

    private final List<DuckDBPersistence<Car, Integer>> opened = new ArrayList<>();
    private final List<Progress> events = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(DuckDBPersistence::close);
    }

    private DuckDBPersistence<Car, Integer> persistence(String file) {
        DuckDBPersistence.Builder<Car, Integer> b = DuckDBPersistence.builder(Car.CAR_ID).stagingChunkRows(CHUNK)
                .progressListener(events::add);
        if (file != null) {
            b.file(dir.resolve(file));
        }
        DuckDBPersistence<Car, Integer> p = b.build();
        opened.add(p);
        return p;
    }

    private static IndexedCollection<Car> collection(DuckDBPersistence<Car, Integer> p) {
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(DuckDBIndex.onAttribute(Car.FEATURES));
        return cars;
    }

    private static List<Car> range(int from, int to) {
        List<Car> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(Car.of(i));
        }
        return out;
    }

    /** The stored objects, and the answers of every index table, must be those of {@code expected}. */
    static void assertContents(IndexedCollection<Car> cars, Set<Car> expected) {
        assertEquals(expected, new HashSet<>(cars));
        assertEquals(expected.size(), cars.size());
        for (String maker : MAKERS) {
            long want = expected.stream().filter(c -> c.manufacturer().equals(maker)).count();
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, maker))) {
                assertEquals(want, rs.size(), "index rows of manufacturer " + maker);
                for (Car c : rs) {
                    assertTrue(expected.contains(c), "index row of " + c + " has no object");
                }
            }
        }
        long radio = expected.stream().filter(c -> c.toString().contains("radio")).count();
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.FEATURES, "radio"))) {
            assertEquals(radio, rs.size(), "index rows of feature radio");
        }
    }

    @Test
    void loadBecomesVisibleAtCommitOnlyWithItsIndexRows() throws Exception {
        DuckDBPersistence<Car, Integer> p = persistence("a.duckdb");
        IndexedCollection<Car> cars = collection(p);
        List<Car> load = range(0, 10 * CHUNK + 7);
        try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            w.addAll(load.subList(0, 500));
            for (Car c : load.subList(500, load.size())) {
                w.add(c);
            }
            // A reader on another thread is not blocked and sees nothing of the load yet.
            assertEquals(0, CompletableFuture.supplyAsync(cars::size).get(30, TimeUnit.SECONDS));
            assertEquals(0, CompletableFuture.supplyAsync(() -> {
                try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, "Ford"))) {
                    return rs.size();
                }
            }).get(30, TimeUnit.SECONDS));
            w.commit();
        }
        assertContents(cars, new HashSet<>(load));
    }

    @Test
    void keysBehaveAsOneAddAllOfTheWholeLoad() {
        // Stored keys replaced unless equal, repeated keys in the load: the last one wins, across chunks too.
        List<Car> before = range(0, 200);
        List<Car> load = new ArrayList<>();
        load.addAll(range(150, 400));
        for (int i = 100; i < 380; i += 3) {
            load.add(Car.of(i).withPrice(1_000 + i));
        }
        load.add(Car.of(7));
        load.addAll(range(10, 20));

        DuckDBPersistence<Car, Integer> ref = persistence(null);
        IndexedCollection<Car> expected = collection(ref);
        expected.addAll(before);
        expected.addAll(load);

        DuckDBPersistence<Car, Integer> p = persistence(null);
        IndexedCollection<Car> cars = collection(p);
        cars.addAll(before);
        try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            w.addAll(load);
            w.commit();
        }
        Set<Car> want = new HashSet<>(expected);
        assertEquals(400, want.size());
        assertTrue(want.contains(Car.of(103).withPrice(1_103)), "the last object of a repeated key wins");
        assertContents(cars, want);
    }

    @Test
    void everyKeyOrderAgainstStoredKeysBehavesAsOneAddAll() {
        // Chunks whose keys are all above what is stored (no check), below or among stored keys, and chunks that
        // come back to keys of an earlier chunk of the load (the check must see them), in a file, reopened.
        List<Car> before = range(1_000, 1_100);
        List<Car> load = new ArrayList<>();
        load.addAll(range(2_000, 2_000 + 3 * CHUNK));           // above every stored key: appended unchecked
        for (int i = 2_000; i < 2_000 + 3 * CHUNK; i += 5) {   // back to keys of the chunks before: last wins
            load.add(Car.of(i).withPrice(5_000 + i));
        }
        load.addAll(range(1_050, 1_050 + CHUNK));               // stored keys, equal objects: left alone
        for (int i = 1_000; i < 1_050; i += 2) {                // stored keys, different objects: replaced
            load.add(Car.of(i).withPrice(7_000 + i));
        }
        load.addAll(range(0, CHUNK));                           // below every stored key: new
        load.add(Car.of(2_001).withPrice(9_999));               // repeated once more in the last chunk
        load.addAll(range(3_000, 3_000 + CHUNK));               // above again

        DuckDBPersistence<Car, Integer> ref = persistence(null);
        IndexedCollection<Car> expected = collection(ref);
        expected.addAll(before);
        expected.addAll(load);
        Set<Car> want = new HashSet<>(expected);
        assertTrue(want.contains(Car.of(2_001).withPrice(9_999)));
        assertTrue(want.contains(Car.of(2_005).withPrice(7_005)));
        assertTrue(want.contains(Car.of(1_002).withPrice(8_002)));

        DuckDBPersistence<Car, Integer> p = persistence("order.duckdb");
        IndexedCollection<Car> cars = collection(p);
        cars.addAll(before);
        try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            w.addAll(load);
            w.commit();
        }
        assertContents(cars, want);
        p.close();
        DuckDBPersistence<Car, Integer> reopened = persistence("order.duckdb");
        assertContents(collection(reopened), want);
    }

    @Test
    void closingThePersistenceUnderAnOpenLoadRollsItBackAndTheWriterClosesQuietly() {
        // The load's Appenders are open on a connection the persistence closes: the writer must not use them.
        DuckDBPersistence<Car, Integer> p = persistence("closed.duckdb");
        IndexedCollection<Car> cars = collection(p);
        cars.addAll(range(0, 10));
        DuckDBBulkWriter<Car> w = p.bulkWriter();
        w.addAll(range(10, 10 + 3 * CHUNK + 5));
        p.close();
        assertThrows(RuntimeException.class, () -> w.add(Car.of(5_000)));
        w.close();
        DuckDBPersistence<Car, Integer> reopened = persistence("closed.duckdb");
        assertContents(collection(reopened), new HashSet<>(range(0, 10)));
    }

    @Test
    void aCoveringIndexGetsItsCopiesFromTheBulkWriter() {
        DuckDBPersistence<Car, Integer> p = persistence(null);
        IndexedCollection<Car> cars = collection(p);
        cars.addIndex(DuckDBIndex.onAttributeCovering(Car.PRICE));
        cars.addAll(range(0, 10));
        List<Car> load = new ArrayList<>(range(10, 4 * CHUNK));
        load.add(Car.of(3).withPrice(123_456));
        try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            w.addAll(load);
            w.commit();
        }
        Set<Car> want = new HashSet<>(range(0, 4 * CHUNK));
        want.remove(Car.of(3));
        want.add(Car.of(3).withPrice(123_456));
        assertContents(cars, want);
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.PRICE, 123_456.0))) {
            assertEquals(List.of(Car.of(3).withPrice(123_456)), rs.stream().toList());
        }
        for (Car c : List.of(Car.of(20), Car.of(4 * CHUNK - 1))) {
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.PRICE, c.price()))) {
                assertTrue(rs.stream().anyMatch(c::equals), "covering row of " + c);
            }
        }
    }

    @Test
    void closeWithoutCommitStoresNothingAndTheWriterCanCommitTwice() {
        DuckDBPersistence<Car, Integer> p = persistence(null);
        IndexedCollection<Car> cars = collection(p);
        cars.addAll(range(0, 10));
        try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            w.addAll(range(10, 300));
        }
        assertContents(cars, new HashSet<>(range(0, 10)));
        try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            w.addAll(range(10, 100));
            w.commit();
            w.addAll(range(100, 300));
            // closed without the second commit
        }
        assertContents(cars, new HashSet<>(range(0, 100)));
    }

    @Test
    void anExceptionFromTheIterableRollsBackTheWholeLoad() {
        DuckDBPersistence<Car, Integer> p = persistence(null);
        IndexedCollection<Car> cars = collection(p);
        cars.addAll(range(0, 10));
        DuckDBBulkWriter<Car> w = p.bulkWriter();
        Iterable<Car> failing = () -> new Iterator<>() {
            int i = 10;
            @Override public boolean hasNext() { return true; }
            @Override public Car next() {
                if (i == 10 + 5 * CHUNK + 3) {
                    throw new IllegalStateException("source broke");
                }
                return Car.of(i++);
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.addAll(failing));
        assertEquals("source broke", e.getMessage());
        assertThrows(IllegalStateException.class, w::commit, "a failed writer refuses to commit");
        w.close();
        assertContents(cars, new HashSet<>(range(0, 10)));
        cars.add(Car.of(50)); // the write lock was released
        assertEquals(11, cars.size());
    }

    @Test
    void aSerialisationErrorRollsBackTheWholeLoad() {
        DuckDBPersistence<Car, Integer> p = persistence(null);
        IndexedCollection<Car> cars = collection(p);
        List<String> broken = new AbstractList<>() {
            @Override public String get(int index) { throw new IllegalStateException("unserialisable"); }
            @Override public int size() { return 1; }
        };
        Car bad = new Car(100_000, "Ford", "Focus", Car.Colour.RED, 3, 1.0, broken);
        try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            w.addAll(range(0, 3 * CHUNK));
            w.add(bad);
            assertThrows(RuntimeException.class, () -> {
                w.addAll(range(3 * CHUNK, 5 * CHUNK));
                w.commit();
            });
        }
        assertContents(cars, Set.of());
    }

    @Test
    void bulkImportFlagLoadsNewKeysAndRefusesAStoredOneNamingIt() {
        DuckDBPersistence<Car, Integer> p = persistence(null);
        IndexedCollection<Car> cars = collection(p);
        cars.addAll(range(0, 50));
        cars.update(List.of(), range(50, 400), queryOptions(enableFlags(DuckDBFlags.BULK_IMPORT)));
        assertContents(cars, new HashSet<>(range(0, 400)));

        List<Car> clash = range(400, 600);
        clash.add(Car.of(42).withPrice(9));
        QuackException e = assertThrows(QuackException.class, () ->
                cars.update(List.of(), clash, queryOptions(enableFlags(DuckDBFlags.BULK_IMPORT))));
        assertTrue(e.getMessage().contains("key 42 is already stored"), e.getMessage());
        assertTrue(e.getMessage().contains("BULK_IMPORT"), e.getMessage());
        assertContents(cars, new HashSet<>(range(0, 400)));

        List<Car> twice = range(400, 450);
        twice.add(Car.of(420).withPrice(3));
        e = assertThrows(QuackException.class, () ->
                cars.update(List.of(), twice, queryOptions(enableFlags(DuckDBFlags.BULK_IMPORT))));
        assertTrue(e.getMessage().contains("key 420 appears twice"), e.getMessage());
        assertContents(cars, new HashSet<>(range(0, 400)));

        // Removals of the same update roll back with the refused load.
        e = assertThrows(QuackException.class, () ->
                cars.update(range(0, 5), clash, queryOptions(enableFlags(DuckDBFlags.BULK_IMPORT))));
        assertContents(cars, new HashSet<>(range(0, 400)));
    }

    @Test
    void bulkImporterRefusesAKeyStoredOrRepeatedAcrossChunks() {
        DuckDBPersistence<Car, Integer> p = persistence(null);
        IndexedCollection<Car> cars = collection(p);
        cars.addAll(range(0, 50));
        try (DuckDBBulkWriter<Car> w = p.bulkImporter()) {
            w.addAll(range(1000, 1000 + 3 * CHUNK));
            QuackException e = assertThrows(QuackException.class, () -> {
                w.addAll(range(10, 10 + CHUNK));
                w.commit();
            });
            assertTrue(e.getMessage().contains("is already stored") && e.getMessage().contains("BULK_IMPORT"),
                    e.getMessage());
        }
        assertContents(cars, new HashSet<>(range(0, 50)));
        try (DuckDBBulkWriter<Car> w = p.bulkImporter()) {
            w.addAll(range(1000, 1000 + 3 * CHUNK));
            QuackException e = assertThrows(QuackException.class, () -> {
                w.addAll(range(1000, 1000 + CHUNK));
                w.commit();
            });
            assertTrue(e.getMessage().contains("earlier in this load"), e.getMessage());
            assertTrue(e.getMessage().contains("(stored form ") && !e.getMessage().contains("(stored form ?)")
                    && !e.getMessage().contains("(stored form _key"), e.getMessage());
        }
        assertContents(cars, new HashSet<>(range(0, 50)));
    }

    @Test
    void otherWritersWaitAndTheLoadingThreadCannotWriteAround() throws Exception {
        DuckDBPersistence<Car, Integer> p = persistence(null);
        IndexedCollection<Car> cars = collection(p);
        FutureTask<Boolean> other;
        try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            w.addAll(range(0, 2 * CHUNK));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cars.add(Car.of(5000)));
            assertTrue(e.getMessage().contains("bulk writer"), e.getMessage());
            other = Parked.runUntilParked("other writer", () -> cars.add(Car.of(7000)));
            assertFalse(other.isDone(), "another writer waits for the load");
            w.commit();
        }
        assertTrue(other.get(30, TimeUnit.SECONDS));
        Set<Car> want = new HashSet<>(range(0, 2 * CHUNK));
        want.add(Car.of(7000));
        assertContents(cars, want);
    }

    @Test
    void progressIsMonotonicAndEndsWithAFinalEvent() {
        DuckDBPersistence<Car, Integer> p = persistence(null);
        IndexedCollection<Car> cars = collection(p);
        try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
            w.addAll(range(0, 5 * CHUNK + 1));
            w.commit();
        }
        List<Progress> load = events.stream().filter(e -> e.operation().equals("bulk load")).toList();
        assertTrue(load.size() >= 6, load.toString());
        for (int i = 1; i < load.size(); i++) {
            assertTrue(load.get(i).rowsDone() >= load.get(i - 1).rowsDone(), load.toString());
        }
        Progress last = load.get(load.size() - 1);
        assertTrue(last.finished());
        assertEquals(5 * CHUNK + 1, last.rowsDone());
        assertEquals(1, load.stream().filter(Progress::finished).count());

        events.clear();
        cars.addAll(range(1000, 1000 + 3 * CHUNK));
        List<Progress> add = events.stream().filter(e -> e.operation().equals("addAll")).toList();
        assertEquals(3 * CHUNK, add.get(add.size() - 1).rowsDone());
        assertEquals(3 * CHUNK, add.get(0).rowsExpected());
        assertTrue(add.get(add.size() - 1).finished());

        events.clear();
        p.optimize();
        Progress opt = events.get(events.size() - 1);
        assertEquals("optimize", opt.operation());
        assertTrue(opt.finished() && opt.rowsDone() == opt.rowsExpected() && opt.rowsDone() > 0, opt.toString());

        events.clear();
        p.compact();
        Progress compact = events.get(events.size() - 1);
        assertEquals("compact", compact.operation());
        assertTrue(compact.finished() && compact.rowsDone() >= cars.size(), compact.toString());
    }
}
