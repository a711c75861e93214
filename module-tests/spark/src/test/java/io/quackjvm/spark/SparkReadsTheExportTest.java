package io.quackjvm.spark;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.ExportSummary;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import scala.jdk.javaapi.CollectionConverters;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Apache Spark SQL, in local mode, reads the hive-partitioned Parquet that {@code database.export} wrote, and its
 * answers are the library's: the count, the sum of prices per manufacturer, and a filter on the partition column
 * that Spark answers from the matching directories alone (its plan says so). Once for a columnar collection, once
 * for a blob collection exported with its objects. The size is {@code -Dquackjvm.spark.cars} (default in the pom).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkReadsTheExportTest {

    private static final int CARS = Integer.getInteger("quackjvm.spark.cars", 20_000);

    @TempDir
    Path dir;

    private SparkSession spark;
    private DuckDBDatabase db;
    private IndexedCollection<Car> columnar;
    private IndexedCollection<Car> blob;

    @BeforeAll
    void start() {
        db = DuckDBDatabase.builder().inMemory().build();
        columnar = db.collection(Car.CAR_ID).name("car").columnarLayout(ColumnarLayout.ofRecord(Car.class)).build();
        blob = db.collection(Car.CAR_ID).name("blob_car").build();
        blob.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        blob.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
        for (IndexedCollection<Car> cars : List.of(columnar, blob)) {
            try (DuckDBBulkWriter<Car> w = db.bulkWriter(cars)) {
                w.addAll(() -> new Iterator<>() {
                    int next;

                    @Override
                    public boolean hasNext() {
                        return next < CARS;
                    }

                    @Override
                    public Car next() {
                        return Car.of(next++);
                    }
                });
                w.commit();
            }
        }
        // Local mode on the loopback interface, without the web UI: nothing listens beyond this machine.
        spark = SparkSession.builder().appName("quackjvm-export").master("local[2]")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.sql.session.timeZone", "UTC")
                // the plan as planned, so that its scan can be asked what it read
                .config("spark.sql.adaptive.enabled", "false")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
    }

    @AfterAll
    void stop() {
        if (spark != null) {
            spark.stop();
        }
        if (db != null) {
            db.close();
        }
    }

    private Path export(IndexedCollection<Car> cars, String name, boolean objects) {
        Path target = dir.resolve(name);
        ExportSummary summary = db.export(cars).partitionBy(Car.MANUFACTURER).includeObjects(objects)
                .toParquet(target);
        assertEquals(CARS, summary.rows());
        assertTrue(summary.files() >= 5, () -> "one file per manufacturer at least, got " + summary.files());
        return target;
    }

    private static Map<String, Double> sumsBySpark(Dataset<Row> df) {
        Map<String, Double> sums = new TreeMap<>();
        for (Row r : df.groupBy("manufacturer").agg(sum("price").as("total")).collectAsList()) {
            sums.put(r.getString(0), r.getDouble(1));
        }
        return sums;
    }

    private static long metric(SparkPlan plan, String name) {
        return plan.metrics().get(name).get().value();
    }

    private static long filesIn(Path partition) {
        try (Stream<Path> files = Files.list(partition)) {
            return files.filter(f -> f.toString().endsWith(".parquet")).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(IndexedCollection<Car> cars, Query<Car> query) {
        try (ResultSet<Car> rs = cars.retrieve(query)) {
            return rs.size();
        }
    }

    private void readsLikeTheLibrary(IndexedCollection<Car> cars, Path exported) {
        Dataset<Row> df = spark.read().parquet(exported.toString());
        assertEquals(cars.size(), df.count());
        assertTrue(List.of(df.columns()).containsAll(List.of("manufacturer", "price", "carId")),
                () -> "columns " + List.of(df.columns()));

        Map<String, Double> ours = new TreeMap<>(db.from(cars).groupBy(Car.MANUFACTURER).sum(Car.PRICE));
        assertEquals(5, ours.size());
        assertEquals(ours, sumsBySpark(df));

        // a filter on the partition column: Spark reads the Ford directory only
        double cheap = 20_000;
        Dataset<Row> fords = df.filter(col("manufacturer").equalTo("Ford").and(col("price").gt(cheap)));
        assertEquals(size(cars, and(equal(Car.MANUFACTURER, "Ford"), greaterThan(Car.PRICE, cheap))), fords.count());
        String plan = fords.queryExecution().executedPlan().toString();
        assertTrue(plan.matches("(?s).*PartitionFilters: \\[[^\\]]*manufacturer[^\\]]*= Ford\\).*"),
                () -> "the partition column's filter is not a partition filter:\n" + plan);
        // run that very plan, then ask its scan what it read: the Ford directory's files, one partition
        assertEquals(fords.count(), fords.collectAsList().size());
        List<FileSourceScanExec> scans = CollectionConverters.asJava(fords.queryExecution().executedPlan()
                .collectLeaves()).stream().filter(FileSourceScanExec.class::isInstance)
                .map(FileSourceScanExec.class::cast).toList();
        assertEquals(1, scans.size(), plan);
        assertEquals(1L, metric(scans.get(0), "numPartitions"), "partitions read");
        assertEquals(filesIn(exported.resolve("manufacturer=Ford")), metric(scans.get(0), "numFiles"), "files read");
        assertFalse(plan.contains("PartitionFilters: []"), plan);
    }

    @Test
    void sparkReadsAColumnarExportWithTheLibrarysAnswers() {
        readsLikeTheLibrary(columnar, export(columnar, "columnar", false));
    }

    @Test
    void sparkReadsABlobExportWithItsObjects() {
        Path exported = export(blob, "blob", true);
        readsLikeTheLibrary(blob, exported);
        Dataset<Row> df = spark.read().parquet(exported.toString());
        assertTrue(List.of(df.columns()).contains("_object"), () -> "columns " + List.of(df.columns()));
        Map<Integer, Integer> sizes = new HashMap<>();
        for (Row r : df.select("carId", "_object").limit(100).collectAsList()) {
            sizes.put(r.getInt(0), ((byte[]) r.get(1)).length);
        }
        assertEquals(100, sizes.size());
        assertTrue(sizes.values().stream().allMatch(n -> n > 0), "an empty object blob");
    }
}
