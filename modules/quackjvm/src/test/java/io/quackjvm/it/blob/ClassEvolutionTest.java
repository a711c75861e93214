package io.quackjvm.it.blob;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.StoredDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Objects stored in the blob layout stay readable when their class gains or loses a field, as users change classes
 * between releases of their application; a change stored objects cannot survive is refused when the collection is
 * opened. Each version of the classes is compiled by the JDK's javac into a class loader of its own, as a new
 * release of an application would load it.
 */
class ClassEvolutionTest {

    @TempDir
    Path dir;

    private static final String ITEM_V1 = """
            package evolved;
            public record Item(int id, String name, double price, Color color, String zone) {}
            """;
    private static final String COLOR_V1 = "package evolved; public enum Color { RED, GREEN }";
    private static final String ITEM_V2 = """
            package evolved;
            public record Item(int id, String name, long stock, java.util.List<String> tags, Color color,
                    String zone) {}
            """;
    private static final String COLOR_V2 = "package evolved; public enum Color { RED, GREEN, BLUE }";

    @Test
    void aRecordThatGainsAndLosesComponentsKeepsItsStoredObjects() throws Exception {
        Path file = dir.resolve("items.duckdb");
        Versioned v1 = compile("v1", Map.of("Item", ITEM_V1, "Color", COLOR_V1));
        try (Store s = new Store(v1, "Item", file)) {
            for (int i = 0; i < 50; i++) {
                // Kryo writes a record's components by name (color, id, name, price, zone): a price with no zero
                // byte and a component after it make a row read with the wrong shape fail or read garbage.
                s.collection.add(v1.make("Item", i, "item " + i, 1000.123456789 + i * 1.37, v1.constant("Color", i % 2),
                        "zone " + i));
            }
        }
        Versioned v2 = compile("v2", Map.of("Item", ITEM_V2, "Color", COLOR_V2));
        try (Store s = new Store(v2, "Item", file)) {
            assertEquals(50, s.collection.size());
            for (int i = 0; i < 50; i++) {
                Object item = s.get(i);
                assertEquals("item " + i, v2.read(item, "name"), "a kept component keeps its value");
                assertEquals(0L, v2.read(item, "stock"), "an added component takes its default");
                assertNull(v2.read(item, "tags"));
                assertEquals(v2.constant("Color", i % 2), v2.read(item, "color"));
                assertEquals("zone " + i, v2.read(item, "zone"), "a component after a removed one keeps its value");
            }
            for (int i = 100; i < 110; i++) {
                s.collection.add(v2.make("Item", i, "new " + i, (long) i, List.of("t" + i), v2.constant("Color", 2), "z"));
            }
            s.collection.update(List.of(s.get(3)), List.of(v2.make("Item", 3, "renamed", 7L, List.of(), v2.constant("Color", 2),
                    "z")));
        }
        try (Store s = new Store(v2, "Item", file)) {
            assertEquals(60, new ArrayList<>(s.collection).size(), "old and new rows read together");
            assertEquals(List.of("t105"), v2.read(s.get(105), "tags"));
            assertEquals("renamed", v2.read(s.get(3), "name"));
            assertEquals("item 4", v2.read(s.get(4), "name"));
        }
    }

    @Test
    void objectsExportedToParquetAfterTheirClassChangedImportIntoAnotherDatabaseUnchanged() throws Exception {
        Versioned v1 = compile("v1", Map.of("Item", ITEM_V1, "Color", COLOR_V1));
        Versioned v2 = compile("v2", Map.of("Item", ITEM_V2, "Color", COLOR_V2));
        // The source holds rows of both shapes: version 0 of its record is v1, version 1 is v2.
        Path source = dir.resolve("source.duckdb");
        try (Store s = new Store(v1, "Item", source)) {
            for (int i = 0; i < 5; i++) {
                s.collection.add(v1.make("Item", i, "old " + i, 1000.123456789 + i, v1.constant("Color", i % 2),
                        "zone " + i));
            }
        }
        Path export = dir.resolve("export");
        List<Object> expected;
        try (Store s = new Store(v2, "Item", source)) {
            for (int i = 5; i < 10; i++) {
                s.collection.add(v2.make("Item", i, "new " + i, (long) i, List.of("t" + i), v2.constant("Color", 2),
                        "zone " + i));
            }
            expected = s.sorted();
            s.persistence.export().includeObjects(true).toParquet(export);
        }
        assertEquals(10, expected.size());
        assertEquals("old 1", v2.read(expected.get(1), "name"));
        // A new database's record knows only v2, in which v2's rows are version 0; one created with v1 and then
        // opened with v2 numbers the shapes as the source does. Both read the files with the files' record.
        Path fresh = dir.resolve("fresh.duckdb");
        Path sameHistory = dir.resolve("same-history.duckdb");
        try (Store t = new Store(v1, "Item", sameHistory)) {
            t.collection.add(v1.make("Item", 100, "kept", 1.5, v1.constant("Color", 0), "z"));
        }
        for (Path target : List.of(fresh, sameHistory)) {
            try (Store t = new Store(v2, "Item", target)) {
                var writer = t.persistence.bulkWriter();
                writer.addParquet(export);
                writer.commit();
                List<Object> imported = t.sorted();
                imported.removeIf(o -> t.idOf(o) == 100);
                assertEquals(expected, imported, "every object as exported, into " + target.getFileName());
            }
            try (Store t = new Store(v2, "Item", target)) {
                assertEquals(expected.get(7), t.get(7), "stored in the target's own encoding, read after reopening");
            }
        }
        // Files of two exports whose records differ (the fresh target's knows only v2) are refused before reading.
        Path mixed = Files.createDirectories(dir.resolve("mixed"));
        try (Store t = new Store(v2, "Item", fresh)) {
            t.persistence.export().includeObjects(true).toParquet(dir.resolve("fresh-export"));
        }
        Files.copy(export.resolve("data_0.parquet"), mixed.resolve("a.parquet"));
        Files.copy(dir.resolve("fresh-export").resolve("data_0.parquet"), mixed.resolve("b.parquet"));
        try (Store t = new Store(v2, "Item", dir.resolve("mixed.duckdb"))) {
            var writer = t.persistence.bulkWriter();
            QuackException e = assertThrows(QuackException.class, () -> writer.addParquet(mixed));
            assertTrue(e.getMessage().contains("the files were not all written by one export"), e.getMessage());
            writer.close();
            assertEquals(0, t.collection.size());
        }
        // Files of rows of both shapes with no record (as an earlier release exported them) are refused whole,
        // naming the missing record: the rows of v1 fail as the class is now, the versioned rows of v2 carry a
        // version nothing records.
        Path stripped = dir.resolve("stripped");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            Files.createDirectories(stripped);
            st.execute("COPY (SELECT * FROM read_parquet('" + export.resolve("**").resolve("*.parquet") + "')) TO '"
                    + stripped.resolve("data_0.parquet") + "' (FORMAT PARQUET)");
        }
        try (Store t = new Store(v2, "Item", dir.resolve("refused.duckdb"))) {
            var writer = t.persistence.bulkWriter();
            StoredDataException e = assertThrows(StoredDataException.class, () -> writer.addParquet(stripped));
            assertTrue(e.getMessage().contains("the Parquet files carry no record of them"), e.getMessage());
            writer.close();
            assertEquals(0, t.collection.size(), "nothing of a refused import is kept");
        }
    }

    @Test
    void aChangedTypeOrReorderedEnumIsRefusedWhenOpenedAndTheFileStaysReadable() throws Exception {
        Path file = dir.resolve("items.duckdb");
        Versioned v1 = storeOneItem(file);
        Versioned retyped = compile("retyped", Map.of("Item", ITEM_V1.replace("double price", "int price"),
                "Color", COLOR_V1));
        StoredDataException e = assertThrows(StoredDataException.class, () -> new Store(retyped, "Item", file));
        assertTrue(e.getMessage().contains("field price of evolved.Item was stored as double and is now int"),
                e.getMessage());
        Versioned reordered = compile("reordered", Map.of("Item", ITEM_V1,
                "Color", "package evolved; public enum Color { GREEN, RED }"));
        e = assertThrows(StoredDataException.class, () -> new Store(reordered, "Item", file));
        assertTrue(e.getMessage().contains("enum evolved.Color no longer has constant RED at position 0"),
                e.getMessage());
        try (Store s = new Store(v1, "Item", file)) {
            assertEquals(2.5, v1.read(s.get(1), "price"), "refusing changed nothing");
        }
    }

    @Test
    void anOrdinaryClassReadsPastRemovedFieldsOfEveryKindAndRunsInitialisersForNewOnes() throws Exception {
        Path file = dir.resolve("orders.duckdb");
        Versioned v1 = compile("v1", Map.of("Order", """
                package evolved;
                public class Order {
                    public int id; public String customer; public java.util.List<String> notes; public Address address;
                    public long[] history; public java.util.Map<String, java.util.List<Integer>> scores;
                    public Order() {}
                    public Order(int id, String customer, java.util.List<String> notes, Address address) {
                        this.id = id; this.customer = customer; this.notes = notes; this.address = address;
                        this.history = new long[] {id, id + 1};
                        this.scores = java.util.Map.of("a", java.util.List.of(id));
                    }
                    public int id() { return id; }
                }
                """, "Address", """
                package evolved;
                public class Address {
                    public String city;
                    public Address() {}
                    public Address(String city) { this.city = city; }
                }
                """));
        try (Store s = new Store(v1, "Order", file)) {
            for (int i = 0; i < 20; i++) {
                s.collection.add(v1.make("Order", i, "customer " + i, new ArrayList<>(List.of("n" + i, "m")),
                        v1.make("Address", "city " + i)));
            }
        }
        Versioned v2 = compile("v2", Map.of("Order", """
                package evolved;
                public class Order {
                    public int id; public String customer; public int priority = 5; public Address address;
                    public Order() {}
                    public Order(int id, String customer, int priority, Address address) {
                        this.id = id; this.customer = customer; this.priority = priority; this.address = address;
                    }
                    public int id() { return id; }
                }
                """, "Address", """
                package evolved;
                public class Address {
                    public String city; public String zip;
                    public Address() {}
                    public Address(String city, String zip) { this.city = city; this.zip = zip; }
                }
                """));
        try (Store s = new Store(v2, "Order", file)) {
            for (int i = 0; i < 20; i++) {
                Object order = s.get(i);
                assertEquals("customer " + i, v2.field(order, "customer"));
                assertEquals(5, v2.field(order, "priority"), "the no-argument constructor's initialiser ran");
                Object address = v2.field(order, "address");
                assertNotNull(address);
                assertEquals("city " + i, v2.field(address, "city"), "a nested class keeps its fields too");
                assertNull(v2.field(address, "zip"));
            }
            s.collection.add(v2.make("Order", 50, "new", 1, v2.make("Address", "x", "12345")));
        }
        try (Store s = new Store(v2, "Order", file)) {
            assertEquals(21, new ArrayList<>(s.collection).size());
            assertEquals("12345", v2.field(v2.field(s.get(50), "address"), "zip"));
        }
    }

    @Test
    void aFileWrittenBeforeShapesWereRecordedKeepsReadingAndThenEvolves() throws Exception {
        Path file = dir.resolve("legacy.duckdb");
        Versioned v1 = storeOneItem(file);
        // The metadata of the earlier release: no record of the classes' shapes (the rows' bytes are the same).
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE quackjvm_collections DROP COLUMN encoding");
        }
        try (Store s = new Store(v1, "Item", file)) {
            assertEquals("one", v1.read(s.get(1), "name"));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT encoding FROM quackjvm_collections WHERE name = 'item'")) {
            assertTrue(rs.next());
            assertTrue(rs.getString(1).contains("record\tevolved.Item"), rs.getString(1));
        }
        Versioned v2 = compile("v2", Map.of("Item", ITEM_V1.replace(", double price", ""), "Color", COLOR_V1));
        try (Store s = new Store(v2, "Item", file)) {
            assertEquals("one", v2.read(s.get(1), "name"));
        }
    }

    /** Stores item 1 ("one", 2.5, GREEN) with the first version of the classes, and returns that version. */
    private Versioned storeOneItem(Path file) throws Exception {
        Versioned v1 = compile("v1", Map.of("Item", ITEM_V1, "Color", COLOR_V1));
        try (Store s = new Store(v1, "Item", file)) {
            s.collection.add(v1.make("Item", 1, "one", 2.5, v1.constant("Color", 1), "zone"));
        }
        return v1;
    }

    /** One collection of a compiled class, keyed by its {@code id()}. */
    private static final class Store implements AutoCloseable {
        final DuckDBPersistence<Object, Integer> persistence;
        final IndexedCollection<Object> collection;
        final SimpleAttribute<Object, Integer> id;

        Store(Versioned classes, String simpleName, Path file) throws Exception {
            @SuppressWarnings("unchecked")
            Class<Object> type = (Class<Object>) classes.type(simpleName);
            Method id = type.getMethod("id");
            this.id = new SimpleAttribute<>(type, Integer.class, "id") {
                @Override
                public Integer getValue(Object o, QueryOptions q) {
                    try {
                        return (Integer) id.invoke(o);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                }
            };
            this.persistence = DuckDBPersistence.builder(this.id).file(file).build();
            this.collection = new ConcurrentIndexedCollection<>(persistence);
        }

        Object get(int key) {
            return collection.retrieve(equal(id, key)).uniqueResult();
        }

        int idOf(Object o) {
            return id.getValue(o, null);
        }

        /** Every object, in the order of their ids. */
        List<Object> sorted() {
            List<Object> all = new ArrayList<>(collection);
            all.sort(java.util.Comparator.comparingInt(this::idOf));
            return all;
        }

        @Override
        public void close() {
            persistence.close();
        }
    }

    /** One version of the classes, compiled and loaded on its own. */
    private record Versioned(ClassLoader loader) {
        Class<?> type(String simpleName) throws ClassNotFoundException {
            return Class.forName("evolved." + simpleName, true, loader);
        }

        Object make(String simpleName, Object... args) throws Exception {
            for (var c : type(simpleName).getConstructors()) {
                if (c.getParameterCount() == args.length) {
                    return c.newInstance(args);
                }
            }
            throw new AssertionError("no constructor of " + simpleName + " takes " + args.length + " arguments");
        }

        Object constant(String enumName, int ordinal) throws ClassNotFoundException {
            return type(enumName).getEnumConstants()[ordinal];
        }

        Object read(Object record, String component) throws ReflectiveOperationException {
            return record.getClass().getMethod(component).invoke(record);
        }

        Object field(Object object, String name) throws ReflectiveOperationException {
            return object.getClass().getField(name).get(object);
        }
    }

    private Versioned compile(String version, Map<String, String> sources) throws IOException, InterruptedException {
        Path src = Files.createDirectories(dir.resolve(version).resolve("src/evolved"));
        Path classes = Files.createDirectories(dir.resolve(version).resolve("classes"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "--release", "17", "-d", classes.toString()));
        for (Map.Entry<String, String> s : sources.entrySet()) {
            Path f = src.resolve(s.getKey() + ".java");
            Files.writeString(f, s.getValue());
            command.add(f.toString());
        }
        Process javac = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(javac.getInputStream().readAllBytes());
        assertEquals(0, javac.waitFor(), "javac: " + out);
        return new Versioned(new URLClassLoader(new URL[]{classes.toUri().toURL()}, getClass().getClassLoader()));
    }
}
