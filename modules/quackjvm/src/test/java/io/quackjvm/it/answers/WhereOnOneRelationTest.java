package io.quackjvm.it.answers;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.Aggregates;
import io.quackjvm.api.DuckDBDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.greaterThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.has;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static com.googlecode.cqengine.query.QueryFactory.lessThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.not;
import static com.googlecode.cqengine.query.QueryFactory.or;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A {@code where} that the typed aggregates put directly on the rows of the relation they read (the object
 * table of a columnar collection, or the index table of the aggregated attribute) instead of a semi-join with the
 * matching keys: every comparison keeps Java's semantics at the values where DuckDB's own comparison differs
 * (-0.0 and 0.0, which DuckDB sees as equal) and where both agree in an unusual way (NaN, the largest value,
 * equal to itself; the infinities; the smallest subnormals).
 */
class WhereOnOneRelationTest {

    private static final QueryOptions NO_OPTIONS = new QueryOptions();
    private static final double[] EDGES = {-0.0, 0.0, Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
            -1.5, 1.5, Double.MIN_VALUE, -Double.MIN_VALUE, 250.25};

    private static List<Sale> edgeSales() {
        Random r = new Random(5);
        List<Sale> out = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            out.add(new Sale(i, Sale.MAKERS.get(r.nextInt(Sale.MAKERS.size())), EDGES[r.nextInt(EDGES.length)],
                    2 + r.nextInt(4), List.of()));
        }
        return out;
    }

    private static List<Query<Sale>> queries() {
        List<Query<Sale>> out = new ArrayList<>();
        for (double v : EDGES) {
            out.add(equal(Sale.PRICE, v));
            out.add(greaterThan(Sale.PRICE, v));
            out.add(greaterThanOrEqualTo(Sale.PRICE, v));
            out.add(lessThan(Sale.PRICE, v));
            out.add(lessThanOrEqualTo(Sale.PRICE, v));
            out.add(not(lessThan(Sale.PRICE, v)));
        }
        for (double lo : new double[]{-0.0, 0.0, -1.5}) {
            for (double hi : new double[]{-0.0, 0.0, 1.5, Double.NaN}) {
                for (int inclusive = 0; inclusive < 4; inclusive++) {
                    out.add(between(Sale.PRICE, lo, (inclusive & 1) != 0, hi, (inclusive & 2) != 0));
                }
            }
        }
        out.add(in(Sale.PRICE, -0.0, Double.NaN, 1.5));
        out.add(in(Sale.PRICE, 0.0));
        out.add(has(Sale.PRICE));
        out.add(not(in(Sale.PRICE, 0.0, Double.POSITIVE_INFINITY)));
        out.add(or(equal(Sale.PRICE, -0.0), greaterThan(Sale.PRICE, 250.0)));
        out.add(and(greaterThanOrEqualTo(Sale.PRICE, -0.0), lessThan(Sale.PRICE, Double.NaN)));
        // the primary key and an unindexed columnar field (doors) next to the price
        out.add(and(lessThan(Sale.ID, 200), between(Sale.PRICE, -0.0, true, 0.0, false)));
        out.add(or(equal(Sale.DOORS, 3), equal(Sale.PRICE, 0.0)));
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"blob", "columnar"})
    void signedZerosNaNAndInfinitiesMatchJava(String layout) {
        List<Sale> objects = edgeSales();
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Sale> sales = AggregatesTest.sales(db, layout);
            sales.addAll(objects);
            for (Query<Sale> q : queries()) {
                if (layout.equals("blob") && q.toString().contains("doors")) {
                    continue; // doors is visible to SQL only as a columnar field
                }
                List<Sale> matching = objects.stream().filter(o -> q.matches(o, NO_OPTIONS)).toList();
                Aggregates<Sale> a = db.from(sales).where(q);
                String what = q + " on " + layout;
                assertEquals(matching.size(), a.count(), "count where " + what);
                List<Double> prices = matching.stream().map(Sale::price).toList();
                assertEquals(prices.stream().min(Double::compare), a.min(Sale.PRICE), "min where " + what);
                assertEquals(prices.stream().max(Double::compare), a.max(Sale.PRICE), "max where " + what);
                double sum = 0;
                for (double p : prices) {
                    sum += p;
                }
                assertSameSum(sum, a.sum(Sale.PRICE), "sum where " + what);
                Map<String, Long> counts = new TreeMap<>();
                for (Sale s : matching) {
                    counts.merge(s.maker(), 1L, Long::sum);
                }
                assertEquals(counts, a.groupBy(Sale.MAKER).count(), "groups where " + what);
                if (layout.equals("columnar")) {
                    assertEquals(matching.stream().mapToInt(Sale::doors).sum(), (int) a.sum(Sale.DOORS),
                            "sum(doors) where " + what);
                    Optional<Integer> maxDoors = matching.stream().map(Sale::doors).max(Integer::compare);
                    assertEquals(maxDoors, a.max(Sale.DOORS), "max(doors) where " + what);
                }
            }
        }
    }

    /** Sums of finite values agree to rounding; a NaN or infinite sum is exactly the same. */
    private static void assertSameSum(double expected, double actual, String what) {
        if (Double.isFinite(expected)) {
            AggregatesTest.assertClose(expected, actual, what);
        } else {
            assertEquals(Double.valueOf(expected), Double.valueOf(actual), what);
        }
    }
}
