package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.spi.LayoutDescription;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.WritePolicy;
import io.quackjvm.api.spi.WritePolicyProvider;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code build()} that fails leaves nothing open and nothing on disk: the root connection and the pool are
 * closed, the spill directory and a database file the build created are deleted, and the file can be opened
 * again at once. Real DuckDB; the failures come from providers that throw.
 */
class FailedBuildTest {

    @TempDir
    Path dir;

    /** A write policy provider that throws what it is given. */
    private static WritePolicyProvider throwing(RuntimeException orError, Error error) {
        return new WritePolicyProvider() {
            @Override
            public String name() {
                return "test-throwing-policy";
            }

            @Override
            public WritePolicy create(boolean serializeWrites) {
                if (error != null) {
                    throw error;
                }
                throw orError;
            }
        };
    }

    private static List<String> listing(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private void assertTheFileOpensAgain(Path file) {
        DuckDBPersistence.builder(Car.CAR_ID).file(file).build().close();
    }

    @Test
    void aProviderThatThrowsLeavesNoConnectionPoolOrNewFile() throws Exception {
        Path file = dir.resolve("cars.duckdb");
        TestPool pool = new TestPool(sql -> sql, () -> { });
        IllegalStateException failure = new IllegalStateException("test: policy refused");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> DuckDBPersistence
                .builder(Car.CAR_ID).file(file).connectionPool(pool).writePolicy(throwing(failure, null)).build());
        assertEquals(failure, thrown);
        assertTrue(pool.root.isClosed(), "The root connection of a failed build was left open");
        assertEquals(1, pool.poolCloses.get(), "The pool of a failed build was left open");
        assertEquals(List.of(), listing(dir), "A failed build left files behind");
        assertTheFileOpensAgain(file);
    }

    @Test
    void aProviderThatThrowsAnErrorLeavesNothingOpenOrOnDisk() throws Exception {
        TestPool pool = new TestPool(sql -> sql, () -> { });
        AssertionError error = new AssertionError("test: policy broken");
        assertThrows(AssertionError.class, () -> DuckDBPersistence.builder(Car.CAR_ID).connectionPool(pool)
                .writePolicy(throwing(null, error)).build());
        assertTrue(pool.root.isClosed(), "The root connection of a failed build was left open");
        assertEquals(1, pool.poolCloses.get(), "The pool of a failed build was left open");
        assertFalse(Files.exists(Path.of(pool.rootTempDirectory)),
                "The spill directory of a failed build was left behind");

        Path file = dir.resolve("cars.duckdb");
        pool.poolCloses.set(0);
        assertThrows(AssertionError.class, () -> DuckDBPersistence.builder(Car.CAR_ID).file(file)
                .connectionPool(pool).writePolicy(throwing(null, error)).build());
        assertTrue(pool.root.isClosed(), "The root connection of a failed build was left open");
        assertEquals(List.of(), listing(dir), "A failed build left files behind");
        assertTheFileOpensAgain(file);
    }

    /** A layout whose table cannot be created: its columns fail once the database is open. */
    private static final class BrokenLayout implements ObjectLayoutProvider {
        @Override
        public String name() {
            return "test-broken-layout";
        }

        @Override
        public <O> ObjectTable<O> createTable(Class<O> objectType, LayoutDescription layout) {
            return new ObjectTable<>() {
                @Override
                public List<Column> columns() {
                    throw new IllegalStateException("test: layout broken");
                }

                @Override
                public void write(O object, RowWriter row) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public O read(RowSource row) {
                    throw new UnsupportedOperationException();
                }
            };
        }
    }

    @Test
    void aTableThatCannotBeCreatedLeavesNoNewFile() throws Exception {
        Path file = dir.resolve("cars.duckdb");
        assertThrows(IllegalStateException.class, () -> DuckDBPersistence.builder(Car.CAR_ID).file(file)
                .layout(new BrokenLayout()).build());
        assertEquals(List.of(), listing(dir), "A failed build left files behind");
        assertTheFileOpensAgain(file);

        // A file that was there before the build stays.
        assertThrows(IllegalStateException.class, () -> DuckDBPersistence.builder(Car.CAR_ID).file(file)
                .layout(new BrokenLayout()).build());
        assertEquals(List.of("cars.duckdb"), listing(dir));
        assertTheFileOpensAgain(file);
    }

    /** The directories {@code onPrimaryKeyInTempFile} makes under java.io.tmpdir that are empty now. */
    private static List<Path> emptyTempFileDirectories() throws Exception {
        try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return all.filter(p -> p.getFileName().toString().startsWith("quackjvm_") && Files.isDirectory(p))
                    .filter(p -> {
                        try (Stream<Path> inside = Files.list(p)) {
                            return inside.findAny().isEmpty();
                        } catch (Exception e) {
                            return false;
                        }
                    }).toList();
        }
    }

    @Test
    void aFailedTempFileBuildLeavesNoTemporaryDirectory() throws Exception {
        SimpleAttribute<Car, URI> unsupportedKey = new SimpleAttribute<>(Car.class, URI.class, "uri") {
            @Override
            public URI getValue(Car car, QueryOptions queryOptions) {
                return URI.create("car:" + car.carId());
            }
        };
        List<Path> before = emptyTempFileDirectories();
        assertThrows(IllegalArgumentException.class, () -> DuckDBPersistence.onPrimaryKeyInTempFile(unsupportedKey));
        List<Path> left = new ArrayList<>(emptyTempFileDirectories());
        left.removeAll(before);
        assertEquals(List.of(), left, "A failed onPrimaryKeyInTempFile left its temporary directory behind");
    }
}
