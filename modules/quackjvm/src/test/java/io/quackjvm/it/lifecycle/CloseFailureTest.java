package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code close()} fails only with a {@link QuackException}, and only after the database is closed and its file
 * released: a connection pool whose own close throws, and a temporary file that cannot be deleted.
 */
class CloseFailureTest {

    @TempDir
    Path dir;

    @Test
    void aPoolThatFailsToCloseIsAQuackExceptionAndTheFileIsReleased() {
        Path file = dir.resolve("cars.duckdb");
        IllegalStateException refused = new IllegalStateException("test: pool close refused");
        TestPool pool = new TestPool(sql -> sql, () -> {
            throw refused;
        });
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).connectionPool(pool)
                .build();
        new ConcurrentIndexedCollection<>(p).addAll(Car.firstN(10));
        QuackException e = assertThrows(QuackException.class, p::close);
        assertSame(refused, e.getCause());
        assertTrue(e.getMessage().contains("file released"), e.getMessage());
        try (DuckDBPersistence<Car, Integer> again = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            assertEquals(10, new ConcurrentIndexedCollection<>(again).size());
        }
    }

    @Test
    void aTemporaryFileThatCannotBeDeletedIsAQuackException() throws Exception {
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKeyInTempFile(Car.CAR_ID);
        new ConcurrentIndexedCollection<>(p).addAll(Car.firstN(10));
        String described = p.toString();
        Path file = Path.of(described.substring(described.indexOf("database ") + 9, described.length() - 1));
        Path stranger = Files.writeString(file.resolveSibling("not-the-library's.txt"), "kept");
        try {
            QuackException e = assertThrows(QuackException.class, p::close);
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            assertFalse(Files.exists(file), "the database file itself is deleted");
        } finally {
            Files.delete(stranger);
            Files.deleteIfExists(file.getParent());
        }
    }
}
