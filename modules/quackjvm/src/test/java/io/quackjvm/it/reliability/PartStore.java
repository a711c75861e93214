package io.quackjvm.it.reliability;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A file-backed collection of {@link Part}s with three DuckDB indexes (a scanned string, an ART-indexed integer
 * and a multi-valued string), opened the same way by the crashing child and by the checking parent.
 */
final class PartStore implements AutoCloseable {

    final DuckDBPersistence<Part, Integer> persistence;
    final IndexedCollection<Part> parts;
    final DuckDBIndex<String, Part> groupIndex = DuckDBIndex.onAttribute(Part.GROUP);
    final DuckDBIndex<Integer, Part> weightIndex = DuckDBIndex.onAttributeWithArtIndex(Part.WEIGHT);
    final DuckDBIndex<String, Part> tagIndex = DuckDBIndex.onAttribute(Part.TAGS);

    PartStore(Path file, UnaryOperator<DuckDBPersistence.Builder<Part, Integer>> settings) {
        persistence = settings.apply(DuckDBPersistence.builder(Part.ID).file(file).memoryLimit("256MB")).build();
        try {
            parts = new ConcurrentIndexedCollection<>(persistence);
            parts.addIndex(groupIndex);
            parts.addIndex(weightIndex);
            parts.addIndex(tagIndex);
        } catch (RuntimeException e) {
            persistence.close();
            throw e;
        }
    }

    PartStore(Path file) {
        this(file, b -> b);
    }

    List<DuckDBIndex<?, Part>> indexes() {
        return List.of(groupIndex, weightIndex, tagIndex);
    }

    /** Every stored object by id, read through the collection. */
    Map<Integer, Part> contents() {
        Map<Integer, Part> out = new HashMap<>();
        for (Part p : parts) {
            Part previous = out.put(p.id(), p);
            if (previous != null) {
                throw new AssertionError("Two stored objects with id " + p.id() + ": " + previous + " and " + p);
            }
        }
        return out;
    }

    @Override
    public void close() {
        persistence.close();
    }
}
