package io.quackjvm.it.columnar;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every field type the columnar layout stores, extremes and nulls included, survives an export to Parquet and an
 * import back exactly (big numbers, bytes, times at their limits, enums, lists, nested records, signed zeros).
 */
class ParquetEverythingTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7L, 20261206L})
    void everyTypeComesBackEqual(long seed) {
        System.out.println("ParquetEverythingTest seed " + seed);
        Generator g = new Generator(seed);
        Map<Integer, Everything> expected = new HashMap<>();
        for (int id = 0; id < 1_000; id++) {
            expected.put(id, g.next(id));
        }
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Everything> source = db.collection(Everything.ID).name("source")
                    .columnarLayout(ColumnarLayout.ofRecord(Everything.class)).build();
            source.addAll(expected.values());
            assertEquals(expected.size(), db.export(source).toParquet(dir.resolve("out")).rows());
            IndexedCollection<Everything> back = db.collection(Everything.ID).name("back")
                    .columnarLayout(ColumnarLayout.ofRecord(Everything.class)).build();
            try (DuckDBBulkWriter<Everything> w = db.bulkWriter(back)) {
                w.addParquet(dir.resolve("out"));
                w.commit();
            }
            ColumnarRoundTripTest.assertAllEqual(expected, back, seed);
        }
    }
}
