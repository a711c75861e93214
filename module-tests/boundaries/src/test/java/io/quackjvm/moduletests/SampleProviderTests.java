package io.quackjvm.moduletests;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.moduletests.model.Part;
import org.example.quackjvm.json.CountingReaderProvider;
import org.example.quackjvm.json.JsonTextLayoutProvider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.ascending;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.orderBy;
import static com.googlecode.cqengine.query.QueryFactory.queryOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sample third-party module {@code org.example.quackjvm.json} on the module path: ServiceLoader finds its
 * layout and reader next to ours, and CQEngine queries run end to end whether the layout is chosen by name or
 * passed to the builder.
 */
class SampleProviderTests {

    private static List<Part> parts(int n) {
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            parts.add(Part.of(i));
        }
        return parts;
    }

    private static <P> Set<String> discovered(Class<P> type, java.util.function.Function<P, String> name) {
        return ServiceLoader.load(type).stream().map(p -> name.apply(p.get()) + "@" + p.type().getModule().getName())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void serviceLoaderFindsTheSampleProvidersBesideOursOnTheModulePath() {
        Set<String> layouts = discovered(ObjectLayoutProvider.class, ObjectLayoutProvider::name);
        assertTrue(layouts.contains("json-text@org.example.quackjvm.json"), layouts::toString);
        assertTrue(layouts.contains("blob@io.quackjvm.storage"), layouts::toString);
        Set<String> readers = discovered(ResultReaderProvider.class, ResultReaderProvider::name);
        assertTrue(readers.contains("counting@org.example.quackjvm.json"), readers::toString);
        assertTrue(readers.contains("jdbc@io.quackjvm.reader.jdbc"), readers::toString);
        assertTrue(JsonTextLayoutProvider.class.getModule().isNamed(), "the sample must run as a named module");
    }

    /** The queries every variant runs: point lookups, an IN list, a filtered scan, an ordered scan. */
    private static void runQueries(DuckDBPersistence<Part, Long> persistence) {
        IndexedCollection<Part> parts = new ConcurrentIndexedCollection<>(persistence);
        List<Part> all = parts(500);
        assertTrue(parts.addAll(all));
        assertEquals(500, parts.size());
        try (ResultSet<Part> rs = parts.retrieve(equal(Part.ID, 42L))) {
            assertEquals(Part.of(42), rs.uniqueResult());
        }
        try (ResultSet<Part> rs = parts.retrieve(in(Part.ID, 1L, 2L, 999L))) {
            assertEquals(Set.of(Part.of(1), Part.of(2)), rs.stream().collect(Collectors.toSet()));
        }
        List<Part> expected = all.stream().filter(p -> p.maker().equals("Bolt & Co") && p.price() >= 10 && p.price() <= 20)
                .sorted(java.util.Comparator.comparing(Part::price).thenComparing(Part::id)).toList();
        try (ResultSet<Part> rs = parts.retrieve(and(equal(Part.MAKER, "Bolt & Co"), between(Part.PRICE, 10.0, 20.0)),
                queryOptions(orderBy(ascending(Part.PRICE), ascending(Part.ID))))) {
            assertEquals(expected, rs.stream().toList());
        }
        Part changed = new Part(7, "part-7 (renamed)", "Dyna", 1.0, 0);
        parts.update(List.of(Part.of(7)), List.of(changed));
        try (ResultSet<Part> rs = parts.retrieve(equal(Part.ID, 7L))) {
            assertEquals(changed, rs.uniqueResult());
        }
        assertTrue(parts.remove(changed));
        assertEquals(499, parts.size());
    }

    @Test
    void theSampleLayoutChosenByNameRunsCQEngineQueries() {
        try (DuckDBPersistence<Part, Long> p = DuckDBPersistence.builder(Part.ID).layout("json-text").build()) {
            runQueries(p);
        }
    }

    @Test
    void theSampleProvidersPassedExplicitlyRunCQEngineQueries() {
        ResultReaderProvider jdbc = ServiceLoader.load(ResultReaderProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(r -> r.name().equals("jdbc")).findFirst().orElseThrow();
        long before = CountingReaderProvider.rowsRead();
        try (DuckDBPersistence<Part, Long> p = DuckDBPersistence.builder(Part.ID)
                .layout(new JsonTextLayoutProvider())
                .resultReaders(jdbc, new CountingReaderProvider())
                .build()) {
            runQueries(p);
        }
        assertTrue(CountingReaderProvider.rowsRead() > before,
                "The explicitly passed bulk reader must have served the scans");
    }

}
