package io.quackjvm.reader.arrow;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ArrowSupport;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs in its own JVM without --add-opens (see the module's pom): Arrow is off, everything still works. */
class ArrowWithoutFlagTest {

    @Test
    void withoutTheFlagArrowReportsWhyAndTheLibraryReadsThroughJdbc() {
        assertFalse(ArrowSupport.isAvailable());
        String reason = ArrowSupport.getUnavailableReason();
        assertTrue(reason.contains("--add-opens=java.base/java.nio=org.apache.arrow.memory.core"), reason);
        assertEquals("--add-opens=java.base/java.nio=org.apache.arrow.memory.core", ArrowSupport.getRequiredJvmFlag());
        try (DuckDBPersistence<Item, Long> p = DuckDBPersistence.onPrimaryKey(Item.ID)) {
            IndexedCollection<Item> collection = new ConcurrentIndexedCollection<>(p);
            List<Item> items = new ArrayList<>();
            for (long i = 0; i < 5_000; i++) {
                items.add(Item.of(i));
            }
            collection.addAll(items);
            try (ResultSet<Item> rs = collection.retrieve(all(Item.class))) {
                assertEquals(new HashSet<>(items), new HashSet<>(rs.stream().toList()));
            }
        }
    }
}
