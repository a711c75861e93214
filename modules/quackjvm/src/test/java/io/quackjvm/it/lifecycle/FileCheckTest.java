package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A file that is not a DuckDB database is refused before DuckDB touches it, and nothing is downloaded. */
class FileCheckTest {

    @TempDir
    Path dir;

    @Test
    void anSqliteFileIsRefusedNamingWhatItIsAndLeftUnchanged() throws Exception {
        Path file = dir.resolve("cars.db");
        byte[] sqlite = new byte[4096];
        byte[] magic = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(magic, 0, sqlite, 0, magic.length);
        Arrays.fill(sqlite, magic.length, sqlite.length, (byte) 7);
        Files.write(file, sqlite);
        QuackException e = assertThrows(QuackException.class,
                () -> DuckDBPersistence.builder(Car.CAR_ID).file(file).build());
        assertTrue(e.getMessage().contains("SQLite database"), e.getMessage());
        assertTrue(e.getMessage().contains("Nothing in it was changed"), e.getMessage());
        assertTrue(e.getMessage().contains(file.toAbsolutePath().normalize().toString()), e.getMessage());
        assertFalse(e.getMessage().contains("INSTALL"), "DuckDB's extension advice leaked: " + e.getMessage());
        assertArrayEquals(sqlite, Files.readAllBytes(file));
        assertFalse(Files.exists(Path.of(file + ".wal")));
    }

    @Test
    void aFileOfAnythingElseIsRefused() throws Exception {
        Path file = dir.resolve("notes.txt");
        Files.writeString(file, "shopping list: eggs, milk, a database");
        QuackException e = assertThrows(QuackException.class,
                () -> DuckDBPersistence.builder(Car.CAR_ID).file(file).build());
        assertTrue(e.getMessage().contains("not a DuckDB database file"), e.getMessage());
        assertEquals("shopping list: eggs, milk, a database", Files.readString(file));
    }

    @Test
    void aDirectoryIsRefusedWithAPathToUseInstead() {
        QuackException e = assertThrows(QuackException.class,
                () -> DuckDBPersistence.builder(Car.CAR_ID).file(dir).build());
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    }

    @Test
    void anEmptyFileAsCreateTempFileLeavesIsANewDatabase() throws Exception {
        Path file = Files.createTempFile(dir, "cqengine_", ".db");
        assertEquals(0, Files.size(file));
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKeyInFile(Car.CAR_ID, file.toFile())) {
            new ConcurrentIndexedCollection<>(p).add(Car.of(1));
        }
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKeyInFile(Car.CAR_ID, file.toFile())) {
            assertEquals(1, new ConcurrentIndexedCollection<>(p).size());
        }
    }
}
