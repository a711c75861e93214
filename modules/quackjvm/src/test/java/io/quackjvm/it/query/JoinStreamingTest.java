package io.quackjvm.it.query;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.Joined;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A join stream hands out its first pairs without computing the whole join: the join here has 2,000,000 pairs
 * of objects of about 1 KB each, far more than the database's memory limit with spilling to disk turned off, so a
 * stream that held the whole join (or a hash table of the large collection's objects) before its first pair fails
 * with DuckDB's out-of-memory error.
 */
class JoinStreamingTest {

    private static final int LEFT = 40_000;
    private static final int RIGHT = 250;
    private static final int PAYLOAD = 1_000;

    @TempDir
    Path dir;

    @Test
    void theFirstPairsOfAJoinLargerThanMemoryComeWithoutComputingIt() {
        Path file = dir.resolve("join.duckdb");
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).build()) {
            IndexedCollection<Wide> left = db.collection(Wide.ID).name("lefts").build();
            IndexedCollection<Wide> right = db.collection(Wide.ID).name("rights").build();
            left.addIndex(DuckDBIndex.onAttribute(Wide.MAKER));
            right.addIndex(DuckDBIndex.onAttribute(Wide.MAKER));
            try (DuckDBBulkWriter<Wide> w = db.bulkWriter(left)) {
                IntStream.range(0, LEFT).forEach(i -> w.add(Wide.of(i, PAYLOAD)));
                w.commit();
            }
            right.addAll(IntStream.range(0, RIGHT).mapToObj(i -> Wide.of(i, PAYLOAD)).toList());
        }
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).memoryLimit("24MB")
                .property("temp_directory", "").build()) {
            IndexedCollection<Wide> left = db.collection(Wide.ID).name("lefts").build();
            IndexedCollection<Wide> right = db.collection(Wide.ID).name("rights").build();
            left.addIndex(DuckDBIndex.onAttribute(Wide.MAKER));
            right.addIndex(DuckDBIndex.onAttribute(Wide.MAKER));
            assertEquals((long) LEFT * RIGHT / 5, db.join(left, right).on(Wide.MAKER, Wide.MAKER).count());
            for (int round = 0; round < 3; round++) {
                try (Stream<Joined<Wide, Wide>> pairs = db.join(left, right).on(Wide.MAKER, Wide.MAKER).stream()) {
                    List<Joined<Wide, Wide>> first = pairs.limit(3).toList();
                    assertEquals(3, first.size());
                    for (Joined<Wide, Wide> pair : first) {
                        assertEquals(pair.left().maker(), pair.right().maker());
                        assertEquals(Wide.of(pair.left().id(), PAYLOAD), pair.left());
                    }
                }
            }
        }
    }
}
