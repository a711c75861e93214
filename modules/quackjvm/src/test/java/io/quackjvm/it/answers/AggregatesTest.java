package io.quackjvm.it.answers;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.Aggregates;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static com.googlecode.cqengine.query.QueryFactory.not;
import static com.googlecode.cqengine.query.QueryFactory.or;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The typed aggregates ({@code database.from(collection)}) and the SQL view of each layout against the same
 * computations in Java over the same random objects, grouped and not, on both layouts.
 */
class AggregatesTest {

    private static final QueryOptions NO_OPTIONS = new QueryOptions();

    static IndexedCollection<Sale> sales(DuckDBDatabase db, String layout) {
        DuckDBDatabase.CollectionBuilder<Sale, Integer> b = db.collection(Sale.ID).name("sale");
        if (layout.equals("columnar")) {
            b.columnarLayout(ColumnarLayout.ofRecord(Sale.class));
        }
        IndexedCollection<Sale> sales = b.build();
        sales.addIndex(DuckDBIndex.onAttribute(Sale.MAKER));
        sales.addIndex(DuckDBIndex.onAttribute(Sale.PRICE));
        sales.addIndex(DuckDBIndex.onAttribute(Sale.TAGS));
        return sales;
    }

    /** An object's distinct non-null values of an attribute, as CQEngine sees them. */
    static <A> List<A> values(Attribute<Sale, A> attribute, Sale s) {
        Set<A> out = new LinkedHashSet<>();
        for (A v : attribute.getValues(s, NO_OPTIONS)) {
            if (v != null) {
                out.add(v);
            }
        }
        return new ArrayList<>(out);
    }

    static <A> List<A> all(Attribute<Sale, A> attribute, List<Sale> objects) {
        List<A> out = new ArrayList<>();
        for (Sale s : objects) {
            out.addAll(values(attribute, s));
        }
        return out;
    }

    static void assertClose(double expected, double actual, String what) {
        double tolerance = 1e-9 * Math.max(1.0, Math.abs(expected));
        assertTrue(Math.abs(expected - actual) <= tolerance, what + ": expected " + expected + " but was " + actual);
    }

    /** The value at {@code ceil(q * n) - 1} of the sorted values. */
    static <A extends Comparable<A>> Optional<A> quantile(List<A> values, double q) {
        if (values.isEmpty()) {
            return Optional.empty();
        }
        List<A> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int index = new BigDecimal(Double.toString(q)).multiply(BigDecimal.valueOf(sorted.size()))
                .setScale(0, RoundingMode.CEILING).intValueExact() - 1;
        return Optional.of(sorted.get(Math.max(0, index)));
    }

    static <G, A, R> Map<G, R> grouped(List<Sale> objects, Attribute<Sale, G> group, Attribute<Sale, A> attribute,
                                       Function<List<A>, R> aggregate) {
        Map<G, List<A>> byGroup = new TreeMap<>();
        for (Sale s : objects) {
            List<A> values = values(attribute, s);
            if (values.isEmpty()) {
                continue;
            }
            for (G g : values(group, s)) {
                byGroup.computeIfAbsent(g, k -> new ArrayList<>()).addAll(values);
            }
        }
        Map<G, R> out = new TreeMap<>();
        byGroup.forEach((g, v) -> out.put(g, aggregate.apply(v)));
        return out;
    }

    static double sum(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).sum();
    }

    static void assertDoubles(Map<?, Double> expected, Map<?, Double> actual, String what) {
        assertEquals(expected.keySet(), actual.keySet(), what + " groups");
        for (Object g : expected.keySet()) {
            assertClose(expected.get(g), actual.get(g), what + " of " + g);
        }
    }

    /** Every aggregate against Java, over {@code objects} (the ones {@code aggregates} covers). */
    static void checkAll(Aggregates<Sale> aggregates, List<Sale> objects, boolean columnar) {
        List<Double> prices = all(Sale.PRICE, objects);
        List<String> makers = all(Sale.MAKER, objects);
        assertEquals(objects.size(), aggregates.count());
        assertClose(sum(prices), aggregates.sum(Sale.PRICE), "sum");
        OptionalDouble avg = aggregates.avg(Sale.PRICE);
        assertEquals(prices.isEmpty(), avg.isEmpty());
        if (!prices.isEmpty()) {
            assertClose(sum(prices) / prices.size(), avg.getAsDouble(), "avg");
            assertEquals(prices.stream().min(Double::compare), aggregates.min(Sale.PRICE));
            assertEquals(prices.stream().max(Double::compare), aggregates.max(Sale.PRICE));
            assertEquals(makers.stream().min(String::compareTo), aggregates.min(Sale.MAKER));
            assertEquals(makers.stream().max(String::compareTo), aggregates.max(Sale.MAKER));
        }
        assertEquals(new HashSet<>(prices).size(), aggregates.countDistinct(Sale.PRICE), "countDistinct(price)");
        assertEquals(new HashSet<>(makers).size(), aggregates.countDistinct(Sale.MAKER), "countDistinct(maker)");
        assertEquals(new HashSet<>(all(Sale.TAGS, objects)).size(), aggregates.countDistinct(Sale.TAGS));
        assertEquals(quantile(prices, 0.5), aggregates.median(Sale.PRICE), "median");
        for (double q : new double[]{0.0, 0.1, 0.3, 0.9, 1.0}) {
            assertEquals(quantile(prices, q), aggregates.quantile(Sale.PRICE, q), "quantile " + q);
        }
        assertEquals(quantile(makers, 0.5), aggregates.median(Sale.MAKER), "median(maker)");
        assertEquals(quantile(all(Sale.ID, objects), 0.25), aggregates.quantile(Sale.ID, 0.25), "quantile(id)");

        Map<String, Long> counts = new TreeMap<>();
        for (Sale s : objects) {
            for (String m : values(Sale.MAKER, s)) {
                counts.merge(m, 1L, Long::sum);
            }
        }
        assertEquals(counts, aggregates.groupBy(Sale.MAKER).count());
        assertEquals(List.copyOf(counts.keySet()), List.copyOf(aggregates.groupBy(Sale.MAKER).count().keySet()),
                "groups in Java's order");
        assertDoubles(grouped(objects, Sale.MAKER, Sale.PRICE, AggregatesTest::sum),
                aggregates.groupBy(Sale.MAKER).sum(Sale.PRICE), "sum by maker");
        assertDoubles(grouped(objects, Sale.MAKER, Sale.PRICE, v -> sum(v) / v.size()),
                aggregates.groupBy(Sale.MAKER).avg(Sale.PRICE), "avg by maker");
        assertEquals(grouped(objects, Sale.MAKER, Sale.PRICE, v -> v.stream().min(Double::compare).orElseThrow()),
                aggregates.groupBy(Sale.MAKER).min(Sale.PRICE));
        assertEquals(grouped(objects, Sale.MAKER, Sale.PRICE, v -> v.stream().max(Double::compare).orElseThrow()),
                aggregates.groupBy(Sale.MAKER).max(Sale.PRICE));
        // a multi-valued group attribute: an object is in the group of each of its tags
        assertEquals(grouped(objects, Sale.TAGS, Sale.ID, v -> (long) v.size()), aggregates.groupBy(Sale.TAGS).count());
        assertDoubles(grouped(objects, Sale.TAGS, Sale.PRICE, AggregatesTest::sum),
                aggregates.groupBy(Sale.TAGS).sum(Sale.PRICE), "sum by tag");
        // a multi-valued aggregated attribute: each of an object's tags counts
        assertEquals(grouped(objects, Sale.MAKER, Sale.TAGS, v -> v.stream().max(String::compareTo).orElseThrow()),
                aggregates.groupBy(Sale.MAKER).max(Sale.TAGS));
        if (columnar) {
            // doors has no index: read from its column
            List<Integer> doors = all(Sale.DOORS, objects);
            assertClose(doors.stream().mapToDouble(d -> d).sum(), aggregates.sum(Sale.DOORS), "sum(doors)");
            assertEquals(doors.stream().max(Integer::compare), aggregates.max(Sale.DOORS));
            assertEquals(quantile(doors, 0.5), aggregates.median(Sale.DOORS));
            assertDoubles(grouped(objects, Sale.DOORS, Sale.PRICE, v -> sum(v) / v.size()),
                    aggregates.groupBy(Sale.DOORS).avg(Sale.PRICE), "avg by doors");
            assertDoubles(grouped(objects, Sale.MAKER, Sale.DOORS, v -> v.stream().mapToDouble(d -> d).sum()),
                    aggregates.groupBy(Sale.MAKER).sum(Sale.DOORS), "sum of doors by maker");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blob", "columnar"})
    void everyAggregateMatchesJava(String layout) {
        List<Sale> objects = Sale.random(3000, 42);
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = sales(db, layout);
            sales.addAll(objects);
            checkAll(db.from(sales), objects, layout.equals("columnar"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blob", "columnar"})
    void whereRestrictsEveryAggregateAsTheQueryMatches(String layout) {
        List<Sale> objects = Sale.random(2000, 11);
        List<Query<Sale>> queries = new ArrayList<>(List.of(
                between(Sale.PRICE, 100.0, 600.0),
                equal(Sale.MAKER, "Škoda"),
                and(in(Sale.TAGS, "cheap", "fast"), greaterThan(Sale.PRICE, 0.0)),
                or(equal(Sale.MAKER, "\uD83D\uDE00moji"), lessThan(Sale.PRICE, -50.0)),
                not(equal(Sale.MAKER, "Ford")),
                equal(Sale.MAKER, "nobody")));
        if (layout.equals("columnar")) {
            queries.add(equal(Sale.DOORS, 3));
        }
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = sales(db, layout);
            sales.addAll(objects);
            for (Query<Sale> q : queries) {
                List<Sale> matching = objects.stream().filter(o -> q.matches(o, NO_OPTIONS)).toList();
                checkAll(db.from(sales).where(q), matching, layout.equals("columnar"));
            }
            // two where calls combine with AND
            Query<Sale> a = greaterThan(Sale.PRICE, 200.0);
            Query<Sale> b = equal(Sale.MAKER, "Alfa");
            assertEquals(objects.stream().filter(o -> a.matches(o, NO_OPTIONS) && b.matches(o, NO_OPTIONS)).count(),
                    db.from(sales).where(a).where(b).count());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blob", "columnar"})
    void anEmptyCollectionHasEmptyAggregates(String layout) {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = sales(db, layout);
            Aggregates<Sale> a = db.from(sales);
            assertEquals(0, a.count());
            assertEquals(0.0, a.sum(Sale.PRICE));
            assertTrue(a.avg(Sale.PRICE).isEmpty());
            assertTrue(a.min(Sale.MAKER).isEmpty());
            assertTrue(a.median(Sale.PRICE).isEmpty());
            assertEquals(Map.of(), a.groupBy(Sale.MAKER).count());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blob", "columnar"})
    void theSqlViewMatchesJava(String layout) {
        List<Sale> objects = Sale.random(2000, 7);
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = sales(db, layout);
            sales.addAll(objects);
            record ByMaker(String maker, long n, double avgPrice, double maxPrice) { }
            List<ByMaker> rows = db.query("SELECT maker, count(*) AS n, avg(price) AS avgPrice, max(price) AS maxPrice "
                    + "FROM sale GROUP BY 1").records(ByMaker.class);
            Map<String, List<Sale>> byMaker = objects.stream().collect(Collectors.groupingBy(Sale::maker));
            assertEquals(byMaker.keySet(), rows.stream().map(ByMaker::maker).collect(Collectors.toSet()));
            for (ByMaker row : rows) {
                List<Double> p = byMaker.get(row.maker()).stream().map(Sale::price).toList();
                assertEquals(p.size(), row.n());
                assertClose(sum(p) / p.size(), row.avgPrice(), "avg of " + row.maker());
                assertEquals(p.stream().mapToDouble(d -> d).max().orElseThrow(), row.maxPrice());
            }
            // the example, on the blob layout too
            assertEquals(byMaker.size(), db.query("SELECT manufacturer, avg(price) FROM (SELECT maker AS manufacturer, "
                    + "price FROM sale) GROUP BY 1").count());
            // every value of every object, with a bound parameter
            for (Sale s : objects.subList(0, 50)) {
                record Row(Integer id, String maker, Double price, List<String> tags) { }
                Row r = db.query("SELECT id, maker, price, tags FROM sale WHERE id = ?", s.id()).records(Row.class)
                        .get(0);
                assertEquals(s.maker(), r.maker());
                assertEquals(0, Double.compare(s.price(), r.price()), s + " price " + r.price());
                assertEquals(s.tags().stream().sorted().toList(), r.tags().stream().sorted().toList());
            }
            assertEquals(objects.stream().filter(s -> s.tags().contains("cheap")).count(),
                    db.query("SELECT count(*) FROM sale WHERE list_contains(tags, ?)", "cheap").scalar(Long.class));
        }
    }

    static <T> BiFunction<T, T, T> first() {
        return (a, b) -> a;
    }
}
