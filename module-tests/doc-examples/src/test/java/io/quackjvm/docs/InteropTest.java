package io.quackjvm.docs;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.ExportSummary;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HashSet;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The examples of docs/interop.md. */
class InteropTest extends Shop {

    private static void delete(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @Test
    void exportQueryAndImport() throws Exception {
        delete(Path.of("exports"));
        Files.createDirectories(Path.of("exports"));
        try (DuckDBDatabase db = DuckDBDatabase.builder().inMemory().build()) {
            // tag::export[]
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car")
                    .columnarLayout(ColumnarLayout.ofRecord(Car.class)).build();
            cars.addAll(loadCars());

            ExportSummary all = db.export(cars)
                    .partitionBy(Car.MANUFACTURER)                 // exports/cars/manufacturer=Ford/data_0.parquet
                    .toParquet(Path.of("exports", "cars"));
            ExportSummary cheap = db.export(cars)
                    .where(lessThan(Car.PRICE, 30_000.0))          // the same translation as a retrieval
                    .toParquet(Path.of("exports", "cheap-cars"));
            System.out.println(all.rows() + " cars in " + all.files() + " files, " + all.bytes() + " bytes");
            // end::export[]
            assertEquals(loadCars().size(), all.rows());
            assertEquals(loadCars().stream().filter(c -> c.price() < 30_000).count(), cheap.rows());

            // tag::blob[]
            IndexedCollection<Car> blobCars = db.collection(Car.CAR_ID).name("blob_car").build();
            blobCars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));  // indexed: a typed column
            blobCars.addAll(loadCars());
            db.export(blobCars)
                    .includeObjects(true)                           // adds _object, for addParquet
                    .toParquet(Path.of("exports", "blob-cars"));
            // end::blob[]

            // tag::import[]
            try (DuckDBDatabase other = DuckDBDatabase.builder().inMemory().build()) {
                IndexedCollection<Car> copy = other.collection(Car.CAR_ID).name("car")
                        .columnarLayout(ColumnarLayout.ofRecord(Car.class)).build();
                try (DuckDBBulkWriter<Car> writer = other.bulkWriter(copy)) {
                    writer.addParquet(Path.of("exports", "cars"));  // a directory, or one .parquet file
                    writer.commit();
                }
                // end::import[]
                assertEquals(new HashSet<>(loadCars()), new HashSet<>(copy));
                IndexedCollection<Car> blobCopy = other.collection(Car.CAR_ID).name("blob_car").build();
                try (DuckDBBulkWriter<Car> writer = other.bulkWriter(blobCopy)) {
                    writer.addParquet(Path.of("exports", "blob-cars"));
                    writer.commit();
                }
                assertEquals(new HashSet<>(loadCars()), new HashSet<>(blobCopy));
                // tag::import[]
            }
            // end::import[]
        }
        long fords;
        // tag::duckdb[]
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM read_parquet('exports/cars/**/*.parquet', "
                     + "hive_partitioning = true) WHERE manufacturer = 'Ford'")) {
            rs.next();
            fords = rs.getLong(1);
        }
        // end::duckdb[]
        assertEquals(loadCars().stream().filter(c -> c.manufacturer().equals("Ford")).count(), fords);
    }
}
