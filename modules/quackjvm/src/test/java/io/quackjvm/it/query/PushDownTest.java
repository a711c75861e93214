package io.quackjvm.it.query;

import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.ascending;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.descending;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.existsIn;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.has;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.not;
import static com.googlecode.cqengine.query.QueryFactory.or;
import static com.googlecode.cqengine.query.QueryFactory.orderBy;
import static com.googlecode.cqengine.query.QueryFactory.queryOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Trees DuckDB can evaluate whole are answered without evaluating a single attribute in Java: while
 * {@link Auto#strict} is set any attribute evaluation throws, and the answers still match the heap.
 */
class PushDownTest {

    @AfterEach
    void relax() {
        Auto.strict = false;
    }

    @ParameterizedTest(name = "columnar {0}")
    @ValueSource(booleans = {false, true})
    @SuppressWarnings({"unchecked", "rawtypes"})
    void wholeTreesRunInDuckDBAlone(boolean columnar) {
        try (QueryFixture f = new QueryFixture(new Random(4), columnar, 400, 30, DuckDBDatabase.builder())) {
            for (var a : List.of(Auto.MAKER, Auto.DEALER, Auto.PRICE, Auto.RATING, Auto.TAGS)) {
                if (!f.indexedAutos.contains(a)) {
                    f.autos.addIndex(DuckDBIndex.onAttribute((com.googlecode.cqengine.attribute.Attribute) a));
                }
            }
            if (!f.indexedDealers.contains(Dealer.CITY)) {
                f.dealers.addIndex(DuckDBIndex.onAttribute(Dealer.CITY));
            }
            if (!f.indexedDealers.contains(Dealer.BRANDS)) {
                f.dealers.addIndex(DuckDBIndex.onAttribute(Dealer.BRANDS));
            }
            List<Query<Auto>[]> queries = new ArrayList<>();
            queries.add(new Query[]{and(equal(Auto.MAKER, "bmw"), greaterThan(Auto.PRICE, 10_000L), between(Auto.DEALER, 3, 20)),
                    and(equal(Auto.MAKER, "bmw"), greaterThan(Auto.PRICE, 10_000L), between(Auto.DEALER, 3, 20))});
            queries.add(new Query[]{or(not(equal(Auto.TAGS, "a")), and(in(Auto.ID, 1, 2, 3), greaterThan(Auto.RATING, 1.0))),
                    or(not(equal(Auto.TAGS, "a")), and(in(Auto.ID, 1, 2, 3), greaterThan(Auto.RATING, 1.0)))});
            queries.add(new Query[]{and(existsIn(f.dealers, Auto.DEALER, Dealer.ID, equal(Dealer.CITY, "rome")), not(has(Auto.TAGS))),
                    and(existsIn(f.heapDealers, Auto.DEALER, Dealer.ID, equal(Dealer.CITY, "rome")), not(has(Auto.TAGS)))});
            queries.add(new Query[]{not(existsIn(f.dealers, Auto.MAKER, Dealer.BRANDS, equal(Dealer.CITY, "rome"))),
                    not(existsIn(f.heapDealers, Auto.MAKER, Dealer.BRANDS, equal(Dealer.CITY, "rome")))});
            for (Query<Auto>[] q : queries) {
                for (boolean ordered : new boolean[]{false, true}) {
                    QueryOptions heapOptions = ordered ? queryOptions(orderBy(descending(Auto.PRICE), ascending(Auto.ID)))
                            : new QueryOptions();
                    QueryOptions duckOptions = ordered ? queryOptions(orderBy(descending(Auto.PRICE), ascending(Auto.ID)))
                            : new QueryOptions();
                    List<Integer> expected = new ArrayList<>();
                    try (ResultSet<Auto> rs = f.heapAutos.retrieve(q[1], heapOptions)) {
                        rs.forEach(a -> expected.add(a.id()));
                    }
                    List<Integer> actual = new ArrayList<>();
                    Auto.strict = true;
                    int size;
                    try (ResultSet<Auto> rs = f.autos.retrieve(q[0], duckOptions)) {
                        for (Auto a : rs) {
                            actual.add(a.id());
                        }
                        size = rs.size();
                    } finally {
                        Auto.strict = false;
                    }
                    assertTrue(!expected.isEmpty(), "a query that selects something: " + q[1]);
                    assertEquals(expected.size(), size, q[1].toString());
                    if (ordered) {
                        assertEquals(expected, actual, q[1].toString());
                    } else {
                        assertEquals(new TreeSet<>(expected), new TreeSet<>(actual), q[1].toString());
                    }
                }
            }
        }
    }
}
