package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.persistence.support.serialization.PersistenceConfig;
import com.googlecode.cqengine.persistence.support.serialization.PojoSerializer;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.StoredDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BlobLayoutTest {

    /** Stored with its own serializer, which counts how often objects are rebuilt. */
    @PersistenceConfig(serializer = CountingSerializer.class)
    public static final class Token {
        static final AtomicInteger DESERIALISED = new AtomicInteger();
        static final SimpleAttribute<Token, Long> ID = new SimpleAttribute<>(Token.class, Long.class, "id") {
            @Override
            public Long getValue(Token t, QueryOptions q) {
                return t.id;
            }
        };
        final long id;
        final String text;

        Token(long id, String text) {
            this.id = id;
            this.text = text;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Token t && t.id == id && t.text.equals(text);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(id);
        }
    }

    /** A user serializer in CQEngine's form: a constructor taking (Class, PersistenceConfig). */
    public static final class CountingSerializer implements PojoSerializer<Token> {
        public CountingSerializer(Class<Token> type, PersistenceConfig config) {
        }

        @Override
        public byte[] serialize(Token t) {
            return (t.id + ":" + t.text).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Token deserialize(byte[] bytes) {
            Token.DESERIALISED.incrementAndGet();
            String s = new String(bytes, StandardCharsets.UTF_8);
            int colon = s.indexOf(':');
            return new Token(Long.parseLong(s.substring(0, colon)), s.substring(colon + 1));
        }
    }

    @Test
    void recordsWithJdkCollectionsRoundTripWithoutJvmFlags() {
        try (DuckDBPersistence<Person, String> p = DuckDBPersistence.onPrimaryKey(Person.NAME)) {
            IndexedCollection<Person> people = new ConcurrentIndexedCollection<>(p);
            List<Person> all = List.of(
                    new Person("ada", 36, List.of("math", "engines")),
                    new Person("grace", 85, Arrays.asList("cobol", "navy")),
                    new Person("linus", 54, Collections.unmodifiableList(new ArrayList<>(List.of("git")))),
                    new Person("\uD83E\uDD86 duck", 3, Collections.emptyList()),
                    new Person("", 0, Collections.singletonList("empty name")),
                    new Person("barbara", 84, new ArrayList<>(List.of("clu"))));
            people.addAll(all);
            assertEquals(new HashSet<>(all), new HashSet<>(people));
            try (ResultSet<Person> rs = people.retrieve(startsWith(Person.NAME, ""))) {
                assertEquals(all.size(), rs.size(), "startsWith(\"\") matches every name, as on the heap");
            }
            try (ResultSet<Person> rs = people.retrieve(startsWith(Person.NAME, "\uD83E"))) {
                assertEquals(1, rs.size());
            }
        }
    }

    @Test
    void persistenceConfigSelectsTheUsersSerializerAndKeyLookupsRebuildOnlyTheirObjects() {
        try (DuckDBPersistence<Token, Long> p = DuckDBPersistence.onPrimaryKey(Token.ID)) {
            IndexedCollection<Token> tokens = new ConcurrentIndexedCollection<>(p);
            List<Token> all = new ArrayList<>();
            for (long i = 0; i < 1000; i++) {
                all.add(new Token(i, "t" + i));
            }
            tokens.addAll(all);
            Token.DESERIALISED.set(0);
            try (ResultSet<Token> rs = tokens.retrieve(equal(Token.ID, 500L))) {
                assertEquals(new Token(500, "t500"), rs.uniqueResult());
            }
            try (ResultSet<Token> rs = tokens.retrieve(in(Token.ID, 1L, 2L, 3L, 5000L))) {
                Set<Token> found = new HashSet<>();
                rs.forEach(found::add);
                assertEquals(Set.of(all.get(1), all.get(2), all.get(3)), found);
            }
            assertEquals(4, Token.DESERIALISED.get(), "a key query must read only the matching rows");
            // the user's bytes are what is stored
            assertTrue(tokens.contains(new Token(7, "t7")));
        }
    }

    @Test
    void theTableIsPlainSqlWithOneRowPerObject() throws Exception {
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).name("cars").build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addAll(List.of(Car.of(1), Car.of(2)));
            assertEquals("cars", p.getTableName());
            assertTrue(p.getBytesUsed() > 0, "an in-memory database reports the memory it holds");
        }
    }

    /**
     * Objects of a user's serializer go through Parquet as its bytes: the export records no encoding (the layout
     * keeps none), the import stores them as they are, and files that claim an encoding the layout does not keep
     * are refused before anything is stored.
     */
    @Test
    void aUserSerializersObjectsRoundTripThroughParquetAndAForeignEncodingIsRefused(@TempDir Path dir)
            throws Exception {
        Set<Token> all = new HashSet<>();
        for (long i = 0; i < 300; i++) {
            all.add(new Token(i, "t" + i));
        }
        try (DuckDBPersistence<Token, Long> p = DuckDBPersistence.onPrimaryKey(Token.ID)) {
            new ConcurrentIndexedCollection<>(p).addAll(all);
            p.export().includeObjects(true).toParquet(dir.resolve("tokens"));
        }
        Path data = dir.resolve("tokens").resolve("data_0.parquet");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            try (java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM parquet_kv_metadata('" + data
                    + "') WHERE key = 'quackjvm_encoding'::BLOB")) {
                rs.next();
                assertEquals(0, rs.getLong(1), "a layout that keeps no record exports none");
            }
            Files.createDirectories(dir.resolve("claimed"));
            s.execute("COPY (SELECT * FROM read_parquet('" + data + "')) TO '" + dir.resolve("claimed")
                    .resolve("data_0.parquet") + "' (FORMAT PARQUET, KV_METADATA {quackjvm_encoding: 'other'})");
        }
        try (DuckDBPersistence<Token, Long> p = DuckDBPersistence.onPrimaryKey(Token.ID)) {
            IndexedCollection<Token> back = new ConcurrentIndexedCollection<>(p);
            try (var w = p.bulkWriter()) {
                w.addParquet(dir.resolve("tokens"));
                w.commit();
            }
            assertEquals(all, new HashSet<>(back));
            try (var w = p.bulkWriter()) {
                var e = assertThrows(StoredDataException.class,
                        () -> w.addParquet(dir.resolve("claimed")));
                assertTrue(e.getMessage().contains("does not read"), e.getMessage());
            }
            assertEquals(all, new HashSet<>(back), "the refused files changed nothing");
        }
    }

    @Test
    void inAFileTheSerialisedObjectsAreStoredUncompressedAndReadBack(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("blob.duckdb");
        List<Car> stored = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            stored.add(Car.of(i));
        }
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).name("cars").build()) {
            new ConcurrentIndexedCollection<>(p).addAll(stored);
        }
        List<String> methods = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT DISTINCT compression FROM pragma_storage_info('cars') "
                     + "WHERE column_name = 'object' AND segment_type = 'BLOB'")) {
            while (rs.next()) {
                methods.add(rs.getString(1));
            }
        }
        assertEquals(List.of("Uncompressed"), methods, "FSST would make index queries decompress whole vectors");
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).name("cars").build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            assertEquals(new HashSet<>(stored), new HashSet<>(cars), "reopened, the same objects come back");
        }
    }
}
