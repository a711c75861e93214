package io.quackjvm.it.keys;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import io.quackjvm.it.keys.KeySpec.Item;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Key types that cannot be exact are refused at build(); a file whose keys were stored another way is refused. */
class KeyTypesTest {

    @TempDir
    Path dir;

    private static <K> SimpleAttribute<Item, K> attribute(Class<K> type) {
        return new SimpleAttribute<>(Item.class, type, "key") {
            @Override
            public K getValue(Item item, QueryOptions queryOptions) {
                return type.cast(item.stored());
            }
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static DuckDBPersistence.Builder<Item, ?> builder(Class<?> type) {
        return DuckDBPersistence.builder((SimpleAttribute) attribute(type));
    }

    @ParameterizedTest
    @ValueSource(classes = {OffsetDateTime.class, ZonedDateTime.class, OffsetTime.class, Object.class, URI.class,
            Number.class, Comparable.class, KeySpec.Halves.class})
    void keyTypesThatCannotKeepJavaEqualityAndOrderAreRefusedAtBuildBeforeAnyFileIsMade(Class<?> type) {
        Path file = dir.resolve(type.getSimpleName() + ".duckdb");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> builder(type).file(file).build());
        String m = e.getMessage();
        assertTrue(m.contains(type.getName()) && m.contains("not supported"), m);
        for (String supported : List.of("String", "Character", "UUID", "Long", "Double", "BigDecimal", "Instant",
                "LocalDateTime", "any enum")) {
            assertTrue(m.contains(supported), "lists " + supported + ": " + m);
        }
        if (type != Object.class && type.getPackageName().equals("java.time")) {
            assertTrue(m.contains("equals") && m.contains("compareTo"), "says why: " + m);
        }
        assertFalse(Files.exists(file), "nothing is created for a refused key type");
    }

    @Test
    void aFileWhoseStringKeysWereStoredRawIsRefusedOnReopenNotMisread() throws SQLException {
        Path file = dir.resolve("old.duckdb");
        try (DuckDBPersistence<Item, ?> p = builder(String.class).file(file).build()) {
            IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
            c.add(new Item("\uE000", 1));
            c.add(new Item("\uD83D\uDE00", 2));
        }
        assertEquals("java.lang.String:VARCHAR", recordedKeyType(file), "the metadata names the encoding");
        setRecordedKeyType(file, "VARCHAR"); // what a file written before the encoding records
        QuackException e = assertThrows(QuackException.class, () -> builder(String.class).file(file).build());
        assertTrue(e.getMessage().contains("does not fit") && e.getMessage().contains("stored raw as VARCHAR")
                && e.getMessage().contains("java.lang.String:VARCHAR"), e.getMessage());
        setRecordedKeyType(file, "java.lang.String:VARCHAR");
        try (DuckDBPersistence<Item, ?> p = builder(String.class).file(file).build()) {
            IndexedCollection<Item> c = new ConcurrentIndexedCollection<>(p);
            try (com.googlecode.cqengine.resultset.ResultSet<Item> rs = c.retrieve(lessThan(attribute(String.class),
                    "\uE000"))) {
                assertEquals(Set.of(new Item("\uD83D\uDE00", 2)), Set.copyOf(rs.stream().toList()),
                        "Java's order: the emoji is below U+E000");
            }
        }
    }

    @Test
    void aFileWhoseIntegerKeysWereStoredBeforeTheEncodingWasRecordedStillOpens() throws SQLException {
        Path file = dir.resolve("longs.duckdb");
        try (DuckDBPersistence<Item, ?> p = builder(Long.class).file(file).build()) {
            new ConcurrentIndexedCollection<>(p).add(new Item(Long.MIN_VALUE, 1));
        }
        setRecordedKeyType(file, "BIGINT"); // integers were stored as they are now
        try (DuckDBPersistence<Item, ?> p = builder(Long.class).file(file).build()) {
            assertEquals(Set.of(new Item(Long.MIN_VALUE, 1)), Set.copyOf(new ConcurrentIndexedCollection<>(p)));
        }
        QuackException other = assertThrows(QuackException.class, () -> builder(UUID.class).file(file).build());
        assertTrue(other.getMessage().contains("does not fit"), other.getMessage());
    }

    private static String recordedKeyType(Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT key_type FROM quackjvm_collections WHERE name = 'item'")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    private static void setRecordedKeyType(Path file, String keyType) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("UPDATE quackjvm_collections SET key_type = '" + keyType + "'"));
        }
    }
}
