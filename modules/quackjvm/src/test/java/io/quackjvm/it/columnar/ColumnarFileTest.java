package io.quackjvm.it.columnar;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The object table is an ordinary DuckDB table, and a file is reopened only by a class that fits it. */
class ColumnarFileTest {

    public enum Colour { RED, GREEN, BLUE }

    public record Car(int carId, String manufacturer, double price, Colour colour, Integer mileage) {
    }

    static final SimpleAttribute<Car, Integer> CAR_ID = new SimpleAttribute<>(Car.class, Integer.class, "carId") {
        @Override
        public Integer getValue(Car car, QueryOptions queryOptions) {
            return car.carId();
        }
    };

    @TempDir
    Path dir;

    private DuckDBPersistence<Car, Integer> open(Path file) {
        return DuckDBPersistence.builder(CAR_ID).file(file).name("car")
                .columnarLayout(ColumnarLayout.ofRecord(Car.class)).build();
    }

    private Path fileWithCars() {
        Path file = dir.resolve("cars.duckdb");
        try (DuckDBPersistence<Car, Integer> p = open(file)) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            List<Car> all = new ArrayList<>();
            String[] makers = {"Ford", "Honda", "Toyota"};
            for (int i = 0; i < 300; i++) {
                all.add(new Car(i, makers[i % 3], 1000.0 * (i % 3 + 1), Colour.values()[i % 3], i % 2 == 0 ? null : i));
            }
            cars.addAll(all);
        }
        return file;
    }

    private static void sql(Path file, String... statements) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            for (String st : statements) {
                s.execute(st);
            }
        }
    }

    @Test
    void plainDuckDBJdbcRunsAGroupByOnTheObjectTable() throws Exception {
        Path file = fileWithCars();
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT manufacturer, count(*), avg(price) FROM car GROUP BY 1 ORDER BY 1")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getLong(2) + " " + rs.getDouble(3));
            }
        }
        assertEquals(List.of("Ford 100 1000.0", "Honda 100 2000.0", "Toyota 100 3000.0"), rows);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT colour FROM car GROUP BY 1 ORDER BY 1")) {
            List<String> colours = new ArrayList<>();
            while (rs.next()) {
                colours.add(rs.getString(1));
            }
            assertEquals(List.of("RED", "GREEN", "BLUE"), colours, "an ENUM orders as the Java enum is declared");
        }
    }

    @Test
    void aGainedNullableFieldGetsItsColumn() throws Exception {
        Path file = fileWithCars();
        sql(file, "ALTER TABLE car DROP COLUMN mileage"); // the file as an older class without 'mileage' left it
        try (DuckDBPersistence<Car, Integer> p = open(file)) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            assertEquals(300, cars.size());
            cars.forEach(car -> assertEquals(null, car.mileage()));
            List<Car> more = new ArrayList<>();
            for (int i = 300; i < 340; i++) {
                more.add(new Car(i, "Kia", 5.0, Colour.BLUE, i));
            }
            cars.addAll(more); // Appender: columns by position, so the layout follows the file's order
            cars.add(new Car(999, "Kia", 5.0, Colour.RED, 7));
            assertEquals(341, cars.size());
            assertTrue(cars.contains(new Car(999, "Kia", 5.0, Colour.RED, 7)));
            assertTrue(cars.contains(new Car(333, "Kia", 5.0, Colour.BLUE, 333)));
        }
    }

    private void assertRefused(Path file, String... expected) {
        QuackException e = assertThrows(QuackException.class, () -> open(file));
        for (String x : expected) {
            assertTrue(e.getMessage().contains(x), "'" + x + "' missing from: " + e.getMessage());
        }
    }

    @Test
    void aRemovedFieldIsRefused() throws Exception {
        Path file = fileWithCars();
        sql(file, "ALTER TABLE car ADD COLUMN owner VARCHAR"); // the stored class had a field 'owner'
        assertRefused(file, "column 'owner'", "removed or renamed");
    }

    @Test
    void aRenamedFieldIsRefused() throws Exception {
        Path file = fileWithCars();
        sql(file, "ALTER TABLE car RENAME COLUMN manufacturer TO maker");
        assertRefused(file, "column 'maker'", "removed or renamed");
    }

    @Test
    void aRetypedFieldIsRefused() throws Exception {
        Path file = fileWithCars();
        sql(file, "ALTER TABLE car ALTER COLUMN price TYPE FLOAT");
        assertRefused(file, "field 'price'", "DOUBLE", "FLOAT");
    }

    @Test
    void aReorderedEnumIsRefused() throws Exception {
        Path file = fileWithCars();
        sql(file, "ALTER TABLE car ALTER COLUMN colour TYPE ENUM('GREEN', 'RED', 'BLUE')");
        assertRefused(file, "field 'colour'", "'GREEN', 'RED', 'BLUE'", "reordered");
    }

    /** Not a supported column type. */
    public record Holder(int id, Object anything) {
    }

    @Test
    void anUnsupportedFieldFailsAtBuildNamingClassFieldTypeAndTheBlobLayout() {
        SimpleAttribute<Holder, Integer> id = new SimpleAttribute<>(Holder.class, Integer.class, "id") {
            @Override
            public Integer getValue(Holder h, QueryOptions queryOptions) {
                return h.id();
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DuckDBPersistence.builder(id)
                .columnarLayout(ColumnarLayout.ofRecord(Holder.class)).build());
        assertTrue(e.getMessage().contains("'anything'") && e.getMessage().contains(Holder.class.getName())
                && e.getMessage().contains("java.lang.Object") && e.getMessage().contains("blob layout"), e.getMessage());
    }
}
