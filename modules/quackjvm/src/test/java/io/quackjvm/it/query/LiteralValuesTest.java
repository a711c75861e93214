package io.quackjvm.it.query;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.index.hash.HashIndex;
import com.googlecode.cqengine.index.navigable.NavigableIndex;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static com.googlecode.cqengine.query.QueryFactory.not;
import static com.googlecode.cqengine.query.QueryFactory.or;
import static com.googlecode.cqengine.query.QueryFactory.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Values that SQL text must quote or cannot carry (quotes, question marks, a NUL char, surrogate pairs, the empty
 * string, signed zeros, NaN, the extremes of each type) in query trees give the heap's answers, on both layouts,
 * with every attribute evaluated by DuckDB alone ({@link Auto#strict}). With String keys holding the same values,
 * a query's few matches are fetched by their keys written into the SQL as literals (a key with a NUL char has none
 * and goes through bound parameters), which must find exactly the stored objects.
 */
class LiteralValuesTest {

    private static final List<String> MAKERS = List.of("it's", "a?b", "x\"y", "\u0000nul", "nul\u0000", "\uD83D\uDE00",
            "", "'", "?", "bmw", "b'm'w", "a\\b", "/*quackjvm:literals*/");
    private static final List<Double> RATINGS = List.of(-0.0, 0.0, Double.NaN, Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, 1.5);
    private static final List<Long> PRICES = List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE);

    /** A String primary key holding each awkward maker, so that the few matches are fetched by literal keys too. */
    static final SimpleAttribute<Auto, String> MAKER_ID = new SimpleAttribute<>(Auto.class, String.class, "makerId") {
        @Override public String getValue(Auto o, QueryOptions q) { return o.maker() + "|" + o.id(); }
    };

    @AfterEach
    void relax() {
        Auto.strict = false;
    }

    @ParameterizedTest(name = "columnar {0}, String keys {1}, row copy {2}")
    @CsvSource({"false,false,false", "true,false,false", "true,false,true", "false,true,false"})
    @SuppressWarnings({"unchecked", "rawtypes"})
    void awkwardValuesInTreesGiveTheHeapsAnswers(boolean columnar, boolean stringKeys, boolean rowCopy) {
        List<Auto> autos = new ArrayList<>();
        int id = 0;
        for (String maker : MAKERS) {
            for (double rating : RATINGS) {
                long price = PRICES.get(id % PRICES.size());
                autos.add(new Auto(id, maker, id % 7, price, id % 2 == 0, id % 3 == 0 ? null : maker, rating,
                        id * 10, List.of(maker, "t" + (id % 4))));
                id++;
            }
        }
        IndexedCollection<Auto> heap = new ConcurrentIndexedCollection<>();
        heap.addIndex(HashIndex.onAttribute(Auto.MAKER));
        heap.addIndex(NavigableIndex.onAttribute(Auto.RATING));
        heap.addAll(autos);
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Auto> duck;
            if (stringKeys) {
                duck = db.collection(MAKER_ID).name("auto").build();
            } else {
                DuckDBDatabase.CollectionBuilder<Auto, Integer> b = db.collection(Auto.ID).name("auto");
                if (columnar) {
                    b.columnarLayout(rowCopy ? ColumnarLayout.ofRecord(Auto.class).withRowCopy()
                            : ColumnarLayout.ofRecord(Auto.class));
                }
                duck = b.build();
            }
            for (Attribute a : List.of(Auto.MAKER, Auto.PRICE, Auto.RATING, Auto.TAGS, Auto.COLOR)) {
                duck.addIndex(DuckDBIndex.onAttribute(a));
            }
            duck.addAll(autos);
            List<Query<Auto>> queries = new ArrayList<>();
            for (String maker : MAKERS) {
                queries.add(and(equal(Auto.MAKER, maker), greaterThan(Auto.RATING, -0.0)));
                queries.add(and(equal(Auto.TAGS, maker), lessThan(Auto.PRICE, 1L)));
                queries.add(or(equal(Auto.COLOR, maker), equal(Auto.RATING, Double.NaN)));
                queries.add(and(startsWith(Auto.MAKER, maker), not(equal(Auto.RATING, 0.0))));
                queries.add(and(in(Auto.MAKER, maker, "bmw"), between(Auto.PRICE, Long.MIN_VALUE, 0L)));
            }
            for (double r : RATINGS) {
                queries.add(and(equal(Auto.RATING, r), not(equal(Auto.MAKER, "it's"))));
                if (!Double.isNaN(r)) { // the heap's NavigableIndex refuses a range from NaN (above +inf) up
                    queries.add(and(between(Auto.RATING, r, Double.POSITIVE_INFINITY), equal(Auto.TAGS, "t1")));
                }
                queries.add(or(lessThan(Auto.RATING, r), equal(Auto.PRICE, Long.MAX_VALUE)));
            }
            int nonEmpty = 0;
            for (Query<Auto> q : queries) {
                TreeSet<Integer> expected = new TreeSet<>();
                try (ResultSet<Auto> rs = heap.retrieve(q)) {
                    rs.forEach(a -> expected.add(a.id()));
                }
                TreeSet<Integer> actual = new TreeSet<>();
                int size;
                Auto.strict = true;
                try (ResultSet<Auto> rs = duck.retrieve(q)) {
                    rs.forEach(a -> actual.add(a.id()));
                    size = rs.size();
                } finally {
                    Auto.strict = false;
                }
                assertEquals(expected, actual, q.toString());
                assertEquals(expected.size(), size, "size() of " + q);
                nonEmpty += expected.isEmpty() ? 0 : 1;
            }
            assertFalse(nonEmpty < queries.size() / 2, "most queries select something: " + nonEmpty);
        }
    }
}
