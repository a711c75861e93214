package io.quackjvm.it;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DatabaseLockedException;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileTest {

    @TempDir
    Path dir;

    @Test
    void aClosedAndReopenedFileReturnsTheSameObjects() {
        Path file = dir.resolve("cars.duckdb");
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKeyInFile(Car.CAR_ID, file.toFile())) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            cars.addAll(Car.firstN(500));
            cars.remove(Car.of(7));
            cars.add(Car.of(8).withPrice(1.5));
        }
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            Set<Car> expected = new HashSet<>(Car.firstN(500));
            expected.remove(Car.of(7));
            expected.remove(Car.of(8));
            expected.add(Car.of(8).withPrice(1.5));
            assertEquals(expected, new HashSet<>(cars));
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, 8))) {
                assertEquals(1.5, rs.uniqueResult().price());
            }
            assertTrue(p.getBytesUsed() > 0);
        }
    }

    @Test
    void aFileHoldingAnotherClassIsRefusedNamingTheDifference() {
        Path file = dir.resolve("mixed.duckdb");
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).name("things").build()) {
            new ConcurrentIndexedCollection<>(p).add(Car.of(1));
        }
        QuackException e = assertThrows(QuackException.class,
                () -> DuckDBPersistence.builder(Person.NAME).file(file).name("things").build());
        assertTrue(e.getMessage().contains(Car.class.getName()) && e.getMessage().contains(Person.class.getName()),
                e.getMessage());
        // the refusal released the file: it can be opened again
        DuckDBPersistence.builder(Car.CAR_ID).file(file).name("things").build().close();
    }

    @Test
    void theSameFileCannotBeOpenedTwiceInOneJvm() {
        Path file = dir.resolve("twice.duckdb");
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).file(file).build()) {
            DatabaseLockedException e = assertThrows(DatabaseLockedException.class,
                    () -> DuckDBPersistence.builder(Car.CAR_ID).file(file).build());
            assertEquals(file.toAbsolutePath().normalize(), e.getFile());
            assertTrue(e.getMessage().contains("already open"), e.getMessage());
        }
    }

    @Test
    void aFileHeldByAnotherProcessFailsNamingTheFileAndTheReason() throws Exception {
        Path file = dir.resolve("held.duckdb");
        Path holder = dir.resolve("Holder.java");
        Files.writeString(holder, String.join("\n",
                "import java.sql.*;",
                "public class Holder {",
                "  public static void main(String[] a) throws Exception {",
                "    try (Connection c = DriverManager.getConnection(\"jdbc:duckdb:\" + a[0])) {",
                "      try (Statement s = c.createStatement()) { s.execute(\"CREATE TABLE IF NOT EXISTS t(x INT)\"); }",
                "      System.out.println(\"ready\");",
                "      System.out.flush();",
                "      System.in.read();",
                "    }",
                "  }",
                "}"));
        Process process = OtherProcess.start(holder, file.toString());
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.equals("ready")) {
                // wait for the child to hold the file (it prints nothing else unless it fails)
            }
            assertEquals("ready", line, "the holder process did not start");
            DatabaseLockedException e = assertThrows(DatabaseLockedException.class,
                    () -> DuckDBPersistence.builder(Car.CAR_ID).file(file).build());
            assertTrue(e.getMessage().contains(file.toAbsolutePath().toString()), e.getMessage());
            assertTrue(e.getMessage().contains("another process"), e.getMessage());
        } finally {
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        // once the other process let go, the file opens
        DuckDBPersistence.builder(Car.CAR_ID).file(file).build().close();
    }

    @Test
    void aTemporaryFileIsDeletedOnClose() {
        DuckDBPersistence<Car, Integer> p = DuckDBPersistence.onPrimaryKeyInTempFile(Car.CAR_ID);
        new ConcurrentIndexedCollection<>(p).addAll(Car.firstN(100));
        assertTrue(p.getBytesUsed() > 0);
        String described = p.toString();
        p.close();
        Path file = Path.of(described.substring(described.indexOf("database ") + 9, described.length() - 1));
        assertFalse(Files.exists(file), "temporary file " + file + " should be gone");
    }
}
