package io.quackjvm.it.blob;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.StoredDataException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A database file from an untrusted source cannot make the blob layout build a class it did not choose: a row
 * naming a class outside the collection's allow-list is refused before the class is loaded.
 */
class UntrustedFileTest {

    /** Holds anything in {@code payload}: the field's declared type allows nothing beyond the JDK's values. */
    public record Holder(int id, Object payload) {
        static final SimpleAttribute<Holder, Integer> ID = new SimpleAttribute<>(Holder.class, Integer.class, "id") {
            @Override
            public Integer getValue(Holder h, QueryOptions q) {
                return h.id();
            }
        };
    }

    public sealed interface Shape permits Circle, Square {
    }

    public record Circle(double radius) implements Shape {
    }

    public record Square(double side) implements Shape {
    }

    public record Part(String name, int count) {
    }

    /** Declared types, a sealed interface's subclasses and a map of anything. */
    public record Drawing(int id, Shape shape, List<Part> parts, Map<String, Object> extras) {
        static final SimpleAttribute<Drawing, Integer> ID = new SimpleAttribute<>(Drawing.class, Integer.class, "id") {
            @Override
            public Integer getValue(Drawing d, QueryOptions q) {
                return d.id();
            }
        };
    }

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        Gadgets.BUILT.set(0);
    }

    private static IndexedCollection<Holder> holders(DuckDBPersistence<Holder, Integer> p) {
        return new ConcurrentIndexedCollection<>(p);
    }

    @Test
    void aStoredClassOutsideTheListIsRefusedWithoutBeingBuilt() {
        Path file = dir.resolve("holders.duckdb");
        try (DuckDBPersistence<Holder, Integer> p = DuckDBPersistence.builder(Holder.ID).file(file)
                .allowClasses(Gadgets.Gadget.class).build()) {
            IndexedCollection<Holder> c = holders(p);
            c.add(new Holder(1, new Gadgets.Gadget()));
            c.add(new Holder(2, "plain"));
            assertEquals(1, c.retrieve(equal(Holder.ID, 1)).uniqueResult().id(), "allowed, it reads back");
        }
        Gadgets.BUILT.set(0);
        try (DuckDBPersistence<Holder, Integer> p = DuckDBPersistence.builder(Holder.ID).file(file).build()) {
            IndexedCollection<Holder> c = holders(p);
            assertEquals("plain", c.retrieve(equal(Holder.ID, 2)).uniqueResult().payload());
            StoredDataException e = assertThrows(StoredDataException.class,
                    () -> c.retrieve(equal(Holder.ID, 1)).uniqueResult());
            assertTrue(e.getMessage().contains(Gadgets.Gadget.class.getName()), e.getMessage());
            assertTrue(e.getMessage().contains("allowClasses(Gadgets.Gadget.class)"), e.getMessage());
            assertTrue(e.getMessage().contains("allowPackages(\"io.quackjvm.it.blob\")"), e.getMessage());
            assertThrows(StoredDataException.class, () -> new ArrayList<>(c));
            assertEquals(0, Gadgets.BUILT.get(), "the refused class was built");
        }
    }

    @Test
    void aCraftedRowNamingAnyClassOnTheClassPathLoadsNothing() throws Exception {
        Path file = dir.resolve("crafted.duckdb");
        try (DuckDBPersistence<Holder, Integer> p = DuckDBPersistence.builder(Holder.ID).file(file)
                .allowClasses(Gadgets.StaticTwinXX.class).build()) {
            holders(p).add(new Holder(1, new Gadgets.StaticTwinXX()));
        }
        // Kryo writes a class name in ASCII with the high bit set on its last character.
        String twin = Gadgets.StaticTwinXX.class.getName();
        String gadget = twin.replace("StaticTwinXX", "StaticGadget");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file)) {
            byte[] row;
            try (var rs = c.createStatement().executeQuery("SELECT object FROM holder WHERE _key = 1")) {
                assertTrue(rs.next());
                row = rs.getBytes(1);
            }
            byte[] crafted = replace(row, ascii(twin), ascii(gadget));
            try (PreparedStatement u = c.prepareStatement("UPDATE holder SET object = ? WHERE _key = 1")) {
                u.setBytes(1, crafted);
                assertEquals(1, u.executeUpdate());
            }
        }
        try (DuckDBPersistence<Holder, Integer> p = DuckDBPersistence.builder(Holder.ID).file(file)
                .allowClasses(Gadgets.StaticTwinXX.class).build()) {
            IndexedCollection<Holder> c = holders(p);
            StoredDataException e = assertThrows(StoredDataException.class,
                    () -> c.retrieve(equal(Holder.ID, 1)).uniqueResult());
            assertTrue(e.getMessage().contains(gadget), e.getMessage());
            assertInstanceOf(QuackException.class, e);
        }
        assertFalse(Gadgets.staticGadgetInitialised, "the crafted class was initialised");
        assertEquals(0, Gadgets.BUILT.get());
    }

    @Test
    void aWriteOfAClassOutsideTheListIsRefusedAndStoresNothing() {
        try (DuckDBPersistence<Holder, Integer> p = DuckDBPersistence.builder(Holder.ID).build()) {
            IndexedCollection<Holder> c = holders(p);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.addAll(List.of(new Holder(1, 1), new Holder(2, new Gadgets.Gadget()))));
            assertTrue(e.getMessage().contains("allowClasses(Gadgets.Gadget.class)"), e.getMessage());
            assertEquals(0, c.size(), "a failed write stores nothing");
        }
    }

    @Test
    void declaredTypesSealedSubclassesAndAllowedPackagesReadBack() {
        Path file = dir.resolve("drawings.duckdb");
        Map<String, Object> extras = new HashMap<>();
        extras.put("gadget", new Gadgets.Gadget());
        extras.put("when", java.time.LocalDate.of(2026, 12, 3));
        Drawing d1 = new Drawing(1, new Circle(2.5), List.of(new Part("wheel", 4)), Map.of("n", 1));
        Drawing d2 = new Drawing(2, new Square(1), new ArrayList<>(List.of(new Part("door", 2))), extras);
        try (DuckDBPersistence<Drawing, Integer> p = DuckDBPersistence.builder(Drawing.ID).file(file)
                .allowPackages("io.quackjvm.it.blob").build()) {
            new ConcurrentIndexedCollection<>(p).addAll(List.of(d1, d2));
        }
        try (DuckDBPersistence<Drawing, Integer> p = DuckDBPersistence.builder(Drawing.ID).file(file).build()) {
            IndexedCollection<Drawing> c = new ConcurrentIndexedCollection<>(p);
            assertEquals(d1, c.retrieve(equal(Drawing.ID, 1)).uniqueResult(), "declared and sealed types need no option");
            assertThrows(StoredDataException.class, () -> c.retrieve(equal(Drawing.ID, 2)).uniqueResult());
        }
        try (DuckDBPersistence<Drawing, Integer> p = DuckDBPersistence.builder(Drawing.ID).file(file)
                .allowPackages("io.quackjvm.it.blob").build()) {
            Drawing read = new ConcurrentIndexedCollection<>(p).retrieve(equal(Drawing.ID, 2)).uniqueResult();
            assertEquals(d2.parts(), read.parts());
            assertInstanceOf(Gadgets.Gadget.class, read.extras().get("gadget"));
            assertEquals(extras.get("when"), read.extras().get("when"));
        }
    }

    @Test
    void jdkPackagesAndNonsenseCannotBeAllowed() {
        for (String p : List.of("java.util", "javax.naming", "sun.misc", "com.sun.rowset", "jdk.internal", "a..b", "")) {
            assertThrows(IllegalArgumentException.class, () -> DuckDBPersistence.builder(Holder.ID).allowPackages(p),
                    p);
        }
        assertThrows(NullPointerException.class,
                () -> DuckDBPersistence.builder(Holder.ID).allowClasses((Class<?>) null));
    }

    private static byte[] ascii(String name) {
        byte[] b = name.getBytes(StandardCharsets.US_ASCII);
        b[b.length - 1] |= (byte) 0x80;
        return b;
    }

    private static byte[] replace(byte[] row, byte[] from, byte[] to) {
        for (int i = 0; i + from.length <= row.length; i++) {
            if (Arrays.equals(row, i, i + from.length, from, 0, from.length)) {
                byte[] out = row.clone();
                System.arraycopy(to, 0, out, i, to.length);
                return out;
            }
        }
        throw new AssertionError("the row does not hold the class name " + new String(from, StandardCharsets.ISO_8859_1));
    }
}
