package io.quackjvm.it.parquet;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.MultiValueAttribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.ExportSummary;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.StoredDataException;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Export to Parquet and import back, differential against CQEngine on the heap, for the blob layout (objects in
 * {@code _object}) and the columnar layout (typed columns), partitioned and not; what other readers see in the
 * files; one consistent snapshot while a writer goes on; and every refusal before anything is written or stored.
 */
class ParquetTest {

    /** A columnar car: typed fields, a list, an enum, a nullable field, signed zeros. */
    public record Auto(int id, String maker, double price, Car.Colour colour, List<String> features, Integer mileage) {

        static final SimpleAttribute<Auto, Integer> ID = new SimpleAttribute<>(Auto.class, Integer.class, "id") {
            @Override
            public Integer getValue(Auto a, QueryOptions q) {
                return a.id();
            }
        };
        static final SimpleAttribute<Auto, String> MAKER = new SimpleAttribute<>(Auto.class, String.class, "maker") {
            @Override
            public String getValue(Auto a, QueryOptions q) {
                return a.maker();
            }
        };
        static final SimpleAttribute<Auto, Double> PRICE = new SimpleAttribute<>(Auto.class, Double.class, "price") {
            @Override
            public Double getValue(Auto a, QueryOptions q) {
                return a.price();
            }
        };
        static final SimpleAttribute<Auto, Car.Colour> COLOUR = new SimpleAttribute<>(Auto.class, Car.Colour.class,
                "colour") {
            @Override
            public Car.Colour getValue(Auto a, QueryOptions q) {
                return a.colour();
            }
        };
        static final MultiValueAttribute<Auto, String> FEATURES = new MultiValueAttribute<>(Auto.class, String.class,
                "features") {
            @Override
            public Iterable<String> getValues(Auto a, QueryOptions q) {
                return a.features();
            }
        };

        /** Doubles compared as Double.compare does, so -0.0 and 0.0 differ as on the heap. */
        @Override
        public boolean equals(Object o) {
            return o instanceof Auto a && id == a.id && maker.equals(a.maker) && Double.compare(price, a.price) == 0
                    && colour == a.colour && features.equals(a.features) && java.util.Objects.equals(mileage, a.mileage);
        }

        @Override
        public int hashCode() {
            return id;
        }
    }

    /** An attribute with no DuckDBIndex: SQL cannot see it. */
    static final SimpleAttribute<Car, Integer> PARITY = new SimpleAttribute<>(Car.class, Integer.class, "parity") {
        @Override
        public Integer getValue(Car c, QueryOptions q) {
            return c.carId() % 2;
        }
    };

    @TempDir
    Path dir;

    private static List<Auto> autos(long seed, int n) {
        Random r = new Random(seed);
        String[] makers = {"Ford", "Honda", "O'Brien & Sons", "BMW", "Tesla/EV"};
        String[][] features = {{}, {"radio"}, {"sunroof", "radio"}};
        List<Auto> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double price = switch (r.nextInt(12)) {
                case 0 -> -0.0;
                case 1 -> 0.0;
                default -> 1000 + r.nextInt(40_000) / 4.0;
            };
            out.add(new Auto(i, makers[r.nextInt(makers.length)], price,
                    Car.Colour.values()[r.nextInt(Car.Colour.values().length)],
                    List.of(features[r.nextInt(features.length)]), r.nextInt(5) == 0 ? null : r.nextInt(200_000)));
        }
        return out;
    }

    private static <O> Set<O> all(IndexedCollection<O> c, Query<O> q) {
        Set<O> out = new HashSet<>();
        try (ResultSet<O> rs = c.retrieve(q)) {
            rs.forEach(out::add);
        }
        return out;
    }

    private static <O> Set<O> all(IndexedCollection<O> c) {
        return new HashSet<>(c);
    }

    /** Rows of a query over Parquet files, read with DuckDB's own driver in a database of its own. */
    private static List<List<Object>> rows(String sql) throws Exception {
        List<List<Object>> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    private static String glob(Path exported) {
        return "read_parquet('" + exported.resolve("**").resolve("*.parquet") + "', hive_partitioning = true)";
    }

    private static long countFiles(Path p) throws Exception {
        try (Stream<Path> all = Files.walk(p)) {
            return all.filter(f -> f.toString().endsWith(".parquet")).count();
        }
    }

    @ParameterizedTest(name = "partitioned {0}")
    @ValueSource(booleans = {false, true})
    void columnarRoundTripMatchesTheHeap(boolean partitioned) throws Exception {
        long seed = 20261206L + (partitioned ? 1 : 0);
        System.out.println("ParquetTest seed " + seed);
        List<Auto> autos = autos(seed, 3_000);
        IndexedCollection<Auto> heap = new ConcurrentIndexedCollection<>();
        heap.addAll(autos);
        Query<Auto> cheap = lessThan(Auto.PRICE, 6_000.0);
        try (DuckDBDatabase db = DuckDBDatabase.builder().build();
             DuckDBDatabase other = DuckDBDatabase.builder().build()) {
            IndexedCollection<Auto> source = db.collection(Auto.ID).name("autos")
                    .columnarLayout(ColumnarLayout.ofRecord(Auto.class)).build();
            source.addAll(autos);
            var export = db.export(source);
            if (partitioned) {
                export = export.partitionBy(Auto.MAKER, Auto.COLOUR);
            }
            ExportSummary whole = export.toParquet(dir.resolve("all"));
            ExportSummary some = export.where(cheap).toParquet(dir.resolve("cheap"));
            assertEquals(autos.size(), whole.rows());
            assertEquals(all(heap, cheap).size(), some.rows(), "seed " + seed);
            assertEquals(countFiles(dir.resolve("all")), whole.files());
            assertEquals(partitioned ? 25 : 1, whole.files(), "one file per maker and colour");
            assertTrue(whole.bytes() > 0 && some.bytes() < whole.bytes());

            IndexedCollection<Auto> back = other.collection(Auto.ID).name("autos")
                    .columnarLayout(ColumnarLayout.ofRecord(Auto.class)).build();
            try (DuckDBBulkWriter<Auto> w = other.bulkWriter(back)) {
                w.addParquet(dir.resolve("all"));
                w.commit();
            }
            assertEquals(all(heap), all(back), "seed " + seed);
            IndexedCollection<Auto> cheapBack = other.collection(Auto.ID).name("cheap")
                    .columnarLayout(ColumnarLayout.ofRecord(Auto.class)).build();
            try (DuckDBBulkWriter<Auto> w = other.bulkWriter(cheapBack)) {
                w.addParquet(dir.resolve("cheap"));
                w.commit();
            }
            assertEquals(all(heap, cheap), all(cheapBack), "seed " + seed);
        }
        // Another reader sees typed columns, signed zeros and all
        Map<String, Double> sums = new TreeMap<>();
        for (Auto a : autos) {
            sums.merge(a.maker(), a.price(), Double::sum);
        }
        Map<String, Double> read = new TreeMap<>();
        for (List<Object> row : rows("SELECT maker, sum(price) FROM " + glob(dir.resolve("all")) + " GROUP BY 1")) {
            read.put((String) row.get(0), ((Number) row.get(1)).doubleValue());
        }
        assertEquals(sums.keySet(), read.keySet());
        sums.forEach((k, v) -> assertEquals(v, read.get(k), 1e-6, k));
        long negativeZeros = autos.stream().filter(a -> Double.doubleToRawLongBits(a.price()) == Long.MIN_VALUE).count();
        assertTrue(negativeZeros > 0);
        assertEquals(negativeZeros, ((Number) rows("SELECT count(*) FROM " + glob(dir.resolve("all"))
                + " WHERE price = 0 AND sign(1 / price) < 0").get(0).get(0)).longValue());
    }

    private static IndexedCollection<Car> blobCars(DuckDBDatabase db, String name) {
        IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name(name).build();
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
        cars.addIndex(DuckDBIndex.onAttribute(Car.FEATURES));
        return cars;
    }

    @ParameterizedTest(name = "partitioned {0}")
    @ValueSource(booleans = {false, true})
    void blobRoundTripMatchesTheHeap(boolean partitioned) throws Exception {
        List<Car> cars = Car.firstN(2_000);
        IndexedCollection<Car> heap = new ConcurrentIndexedCollection<>();
        heap.addAll(cars);
        Query<Car> some = and(in(Car.MANUFACTURER, "Ford", "BMW"), between(Car.PRICE, 6_000.0, true, 9_000.0, true));
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("cars.duckdb")).build();
             DuckDBDatabase other = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> source = blobCars(db, "car");
            source.addAll(cars);
            var export = db.export(source).includeObjects(true);
            if (partitioned) {
                export = export.partitionBy(Car.MANUFACTURER);
            }
            assertEquals(cars.size(), export.toParquet(dir.resolve("all")).rows());
            assertEquals(all(heap, some).size(), export.where(some).toParquet(dir.resolve("some")).rows());
            IndexedCollection<Car> back = blobCars(other, "car");
            IndexedCollection<Car> someBack = blobCars(other, "some");
            try (DuckDBBulkWriter<Car> w = other.bulkWriter(back)) {
                w.addParquet(dir.resolve("all"));
                w.commit();
            }
            try (DuckDBBulkWriter<Car> w = other.bulkWriter(someBack)) {
                w.addParquet(dir.resolve("some"));
                w.commit();
            }
            assertEquals(all(heap), all(back));
            assertEquals(all(heap, some), all(someBack));
            // the index tables were filled by the load: a query on them agrees with the heap
            assertEquals(all(heap, equal(Car.FEATURES, "sunroof")), all(back, equal(Car.FEATURES, "sunroof")));
        }
        // the key and every indexed attribute are typed columns for other readers
        List<List<Object>> first = rows("SELECT carId, manufacturer, price, features FROM " + glob(dir.resolve("all"))
                + " WHERE carId = 3");
        Car three = Car.of(3);
        // a multi-valued attribute is a list of its values in their order
        assertEquals(List.of(3, three.manufacturer(), three.price(), List.of("radio", "sunroof")).toString(),
                first.get(0).toString());
    }

    /**
     * An import into a collection that encodes objects as the exporting one did stores the exported bytes as they
     * are; chunk by chunk, whatever else the load holds: objects added before it, keys the files hold twice (the
     * last object of a key wins, as in any bulk load), a load of several chunks.
     */
    @Test
    void anImportOfRepeatedKeysAfterAddedObjectsKeepsTheLastObjectOfEachKey() throws Exception {
        List<Car> cars = Car.firstN(700);
        Car changed = new Car(699, "Skoda", "Octavia", Car.Colour.BLUE, 5, 123.0, List.of("hitch"));
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> source = blobCars(db, "car");
            source.addAll(cars);
            db.export(source).includeObjects(true).toParquet(dir.resolve("all"));
            source.update(List.of(Car.of(699)), List.of(changed));
            db.export(source).includeObjects(true).where(equal(Car.CAR_ID, 699)).toParquet(dir.resolve("changed"));
            Path twice = Files.createDirectories(dir.resolve("twice"));
            Files.copy(dir.resolve("all").resolve("data_0.parquet"), twice.resolve("a.parquet"));
            Files.copy(dir.resolve("changed").resolve("data_0.parquet"), twice.resolve("b.parquet"));

            // one chunk: the key given twice replaces an object within it
            IndexedCollection<Car> back = blobCars(db, "back");
            try (DuckDBBulkWriter<Car> w = db.bulkWriter(back)) {
                w.addParquet(twice);
                w.commit();
            }
            Set<Car> expected = new HashSet<>(cars);
            expected.remove(Car.of(699));
            expected.add(changed);
            assertEquals(expected, all(back));
            assertEquals(Set.of(changed), all(back, equal(Car.MANUFACTURER, "Skoda")), "the index holds the last one");
            // chunks of 64, the first begun by objects added before the files
            IndexedCollection<Car> small = db.collection(Car.CAR_ID).name("small").stagingChunkRows(64).build();
            small.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            Car extra = new Car(10_000, "Lada", "Niva", Car.Colour.RED, 3, 1.0, List.of());
            try (DuckDBBulkWriter<Car> w = db.bulkWriter(small)) {
                w.add(extra);
                w.add(changed);
                w.addParquet(dir.resolve("all"));
                w.commit();
            }
            expected = new HashSet<>(cars);
            expected.add(extra);
            assertEquals(expected, all(small));
            assertEquals(Set.of(), all(small, equal(Car.MANUFACTURER, "Skoda")), "the last object of key 699 wins");
        }
    }

    /** Keys changed in the files after the export are refused, whole, before the load can commit. */
    @Test
    void filesWhoseKeysDisagreeWithTheirObjectsAreRefused() throws Exception {
        List<Car> cars = Car.firstN(200);
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> source = blobCars(db, "car");
            source.addAll(cars);
            db.export(source).includeObjects(true).toParquet(dir.resolve("all"));
            Path shifted = Files.createDirectories(dir.resolve("shifted"));
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
                s.execute("COPY (SELECT * REPLACE (carId + 1000 AS carId) FROM read_parquet('" + dir.resolve("all")
                        .resolve("data_0.parquet") + "')) TO '" + shifted.resolve("data_0.parquet") + "' (FORMAT "
                        + "PARQUET, KV_METADATA {quackjvm_encoding: '" + encoding(dir.resolve("all")).replace("'", "''")
                        + "'})");
            }
            IndexedCollection<Car> back = blobCars(db, "back");
            try (DuckDBBulkWriter<Car> w = db.bulkWriter(back)) {
                StoredDataException e = assertThrows(StoredDataException.class, () -> w.addParquet(shifted));
                assertTrue(e.getMessage().contains("holds an object whose key is"), e.getMessage());
            }
            assertEquals(0, back.size(), "nothing of the refused files was stored");
            assertEquals(Set.of(), all(back, equal(Car.MANUFACTURER, "Ford")));
        }
    }

    /** The record of the objects' encoding an export wrote into its first file. */
    private static String encoding(Path export) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT decode(value) FROM parquet_kv_metadata('"
                     + export.resolve("data_0.parquet") + "') WHERE key = 'quackjvm_encoding'::BLOB")) {
            assertTrue(rs.next(), "the export records its encoding");
            return rs.getString(1);
        }
    }

    @Test
    void anExportIsOneSnapshotWhileAWriterGoesOn() throws Exception {
        int batch = 7;
        int base = 3_000;
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(dir.resolve("live.duckdb")).build()) {
            IndexedCollection<Car> cars = blobCars(db, "car");
            cars.addAll(Car.firstN(base));
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                int next = base;
                try {
                    while (!stop.get()) {
                        List<Car> b = new ArrayList<>();
                        for (int i = 0; i < batch; i++) {
                            b.add(Car.of(next++));
                        }
                        cars.addAll(b); // one transaction of seven
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            writer.start();
            try {
                for (int i = 0; i < 5; i++) {
                    Path out = dir.resolve("e" + i);
                    long rows = db.export(cars).partitionBy(Car.MANUFACTURER).toParquet(out).rows();
                    assertEquals(0, (rows - base) % batch, "an export holds whole transactions only: " + rows);
                    long ids = ((Number) rows("SELECT count(DISTINCT carId) FROM " + glob(out)).get(0).get(0))
                            .longValue();
                    assertEquals(rows, ids);
                    long max = ((Number) rows("SELECT max(carId) FROM " + glob(out)).get(0).get(0)).longValue();
                    assertEquals(rows - 1, max, "the export holds a prefix of the writes, none missing");
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            assertNull(failed.get());
        }
    }

    @Test
    void badTargetsAndExportsAreRefusedBeforeAnythingIsWritten() throws Exception {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = blobCars(db, "car");
            cars.addAll(Car.firstN(50));
            IndexedCollection<Auto> autos = db.collection(Auto.ID).name("autos")
                    .columnarLayout(ColumnarLayout.ofRecord(Auto.class)).build();
            autos.addAll(autos(1, 50));

            Path full = Files.createDirectories(dir.resolve("full"));
            Files.writeString(full.resolve("keep.txt"), "mine");
            QuackException notEmpty = assertThrows(QuackException.class, () -> db.export(cars).toParquet(full));
            assertTrue(notEmpty.getMessage().contains("not empty"), notEmpty.getMessage());
            assertEquals(List.of("keep.txt"), list(full));

            Path file = Files.writeString(dir.resolve("a-file"), "x");
            QuackException isFile = assertThrows(QuackException.class, () -> db.export(cars).toParquet(file));
            assertTrue(isFile.getMessage().contains("is a file"), isFile.getMessage());

            QuackException noParent = assertThrows(QuackException.class,
                    () -> db.export(cars).toParquet(dir.resolve("missing").resolve("out")));
            assertTrue(noParent.getMessage().contains("does not exist"), noParent.getMessage());

            Path out = dir.resolve("out");
            QuackException invisible = assertThrows(QuackException.class,
                    () -> db.export(cars).partitionBy(PARITY).toParquet(out));
            assertTrue(invisible.getMessage().contains("SQL cannot see attribute 'parity'"), invisible.getMessage());
            QuackException multi = assertThrows(QuackException.class,
                    () -> db.export(cars).partitionBy(Car.FEATURES).toParquet(out));
            assertTrue(multi.getMessage().contains("one value per object"), multi.getMessage());
            QuackException objects = assertThrows(QuackException.class,
                    () -> db.export(autos).includeObjects(true).toParquet(out));
            assertTrue(objects.getMessage().contains("includeObjects"), objects.getMessage());
            QuackException untranslatable = assertThrows(QuackException.class,
                    () -> db.export(cars).where(equal(PARITY, 1)).toParquet(out));
            assertTrue(untranslatable.getMessage().contains("cannot be answered in SQL"), untranslatable.getMessage());
            assertFalse(Files.exists(out), "nothing was written");
            assertEquals(List.of("a-file", "full"), list(dir), "no temporary directory left behind");

            // an empty directory is a fine target
            Path empty = Files.createDirectories(dir.resolve("empty"));
            assertEquals(50, db.export(cars).toParquet(empty).rows());
        }
    }

    @Test
    void importsRefuseMissingAndMistypedColumnsBeforeStoringAnything() throws Exception {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = blobCars(db, "car");
            cars.addAll(Car.firstN(50));
            Path noObjects = dir.resolve("no-objects");
            db.export(cars).toParquet(noObjects);
            IndexedCollection<Car> into = blobCars(db, "into");
            try (DuckDBBulkWriter<Car> w = db.bulkWriter(into)) {
                QuackException e = assertThrows(QuackException.class, () -> w.addParquet(noObjects));
                assertTrue(e.getMessage().contains("no column '_object'") && e.getMessage().contains("includeObjects"),
                        e.getMessage());
                w.add(Car.of(1)); // the writer is still usable: nothing was stored
                w.commit();
            }
            assertEquals(1, into.size());

            IndexedCollection<Auto> autos = db.collection(Auto.ID).name("autos")
                    .columnarLayout(ColumnarLayout.ofRecord(Auto.class)).build();
            Path mistyped = dir.resolve("mistyped.parquet");
            Path missing = dir.resolve("missing.parquet");
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
                s.execute("COPY (SELECT 1 AS id, 'Ford' AS maker, 'cheap' AS price, 'RED' AS colour, ['radio'] AS "
                        + "features, 5 AS mileage) TO '" + mistyped + "' (FORMAT PARQUET)");
                s.execute("COPY (SELECT 1 AS id, 'Ford' AS maker, 2.5::DOUBLE AS price) TO '" + missing + "' (FORMAT PARQUET)");
            }
            try (DuckDBBulkWriter<Auto> w = db.bulkWriter(autos)) {
                QuackException typed = assertThrows(QuackException.class, () -> w.addParquet(mistyped));
                assertTrue(typed.getMessage().contains("column 'price' holds VARCHAR")
                        && typed.getMessage().contains("DOUBLE"), typed.getMessage());
                QuackException absent = assertThrows(QuackException.class, () -> w.addParquet(missing));
                assertTrue(absent.getMessage().contains("no column 'colour'"), absent.getMessage());
                QuackException nothing = assertThrows(QuackException.class,
                        () -> w.addParquet(dir.resolve("nowhere")));
                assertTrue(nothing.getMessage().contains("no such file"), nothing.getMessage());
                w.commit();
            }
            assertEquals(0, autos.size());
        }
    }

    private static List<String> list(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
