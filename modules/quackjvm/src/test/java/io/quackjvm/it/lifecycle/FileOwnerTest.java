package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import io.quackjvm.api.DatabaseLockedException;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One database file has one owner in a JVM, whatever name it is reached by: a hard link, a symbolic link, a path
 * through a linked directory or one with {@code ..} in it is refused while the file is open, and opens once the
 * owner closed it.
 */
class FileOwnerTest {

    @TempDir
    Path dir;

    /** Opens a file and closes what it opened. */
    private enum Opener {
        DATABASE(file -> DuckDBDatabase.builder().file(file).build()),
        PERSISTENCE(file -> DuckDBPersistence.builder(Car.CAR_ID).file(file).build());

        private final Function<Path, AutoCloseable> open;

        Opener(Function<Path, AutoCloseable> open) {
            this.open = open;
        }
    }

    /** Creates the file with one car, returns it. */
    private Path created() {
        Path file = dir.resolve("data").resolve("cars.duckdb");
        try {
            Files.createDirectories(file.getParent());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            new ConcurrentIndexedCollection<>(p).add(Car.of(1));
        }
        return file;
    }

    private void refusedWhileOpenThenOpens(Path file, Path other) throws Exception {
        for (Opener first : Opener.values()) {
            for (Opener second : Opener.values()) {
                try (AutoCloseable owner = first.open.apply(file)) {
                    DatabaseLockedException e = assertThrows(DatabaseLockedException.class,
                            () -> second.open.apply(other).close(), first + " then " + second);
                    assertTrue(e.getMessage().contains("already open in this JVM"), e.getMessage());
                    assertTrue(e.getMessage().contains(other.toAbsolutePath().normalize().toString()), e.getMessage());
                    assertTrue(e.getMessage().contains("Close that one first"), e.getMessage());
                }
                // once the owner closed it, the other name opens it at once
                second.open.apply(other).close();
            }
        }
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(other).build()) {
            assertEquals(1, new ConcurrentIndexedCollection<>(p).size());
        }
    }

    @Test
    void aHardLinkToAnOpenFileIsRefused() throws Exception {
        Path file = created();
        refusedEitherWay(file, Files.createLink(dir.resolve("hard.duckdb"), file));
    }

    @Test
    void aSymbolicLinkToAnOpenFileIsRefused() throws Exception {
        Path file = created();
        refusedEitherWay(file, Files.createSymbolicLink(dir.resolve("soft.duckdb"), file));
    }

    /** Open under either name, the file is refused under the other. */
    private void refusedEitherWay(Path file, Path link) throws Exception {
        refusedWhileOpenThenOpens(file, link);
        refusedWhileOpenThenOpens(link, file);
    }

    @Test
    void aPathThroughALinkedDirectoryIsRefused() throws Exception {
        Path file = created();
        Path linkedDir = Files.createSymbolicLink(dir.resolve("linked"), file.getParent());
        refusedWhileOpenThenOpens(file, linkedDir.resolve(file.getFileName()));
    }

    @Test
    void aPathWithDotDotIsRefused() throws Exception {
        Path file = created();
        Files.createDirectories(dir.resolve("elsewhere"));
        refusedWhileOpenThenOpens(file, dir.resolve("elsewhere").resolve("..").resolve("data")
                .resolve(file.getFileName()));
    }

    @Test
    void aNewFileReachedThroughALinkedDirectoryIsRefused() throws Exception {
        Path real = Files.createDirectories(dir.resolve("fresh"));
        Path linkedDir = Files.createSymbolicLink(dir.resolve("fresh-link"), real);
        try (DuckDBDatabase owner = DuckDBDatabase.builder().file(real.resolve("new.duckdb")).build()) {
            assertThrows(DatabaseLockedException.class,
                    () -> DuckDBDatabase.builder().file(linkedDir.resolve("new.duckdb")).build().close());
        }
    }
}
