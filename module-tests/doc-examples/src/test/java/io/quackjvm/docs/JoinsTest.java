package io.quackjvm.docs;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.Joined;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.existsIn;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The examples of docs/joins.md. */
class JoinsTest extends Shop {

    @Test
    void existsInAndTypedJoins() {
        Map<Integer, Dealer> dealerById = loadDealers().stream()
                .collect(Collectors.toMap(Dealer::dealerId, Function.identity()));
        // tag::exists-in[]
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(Path.of("shop.duckdb")).build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            IndexedCollection<Dealer> dealers = db.collection(Dealer.DEALER_ID).name("dealer").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.DEALER_ID));
            cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
            dealers.addIndex(DuckDBIndex.onAttribute(Dealer.STARS));
            dealers.addIndex(DuckDBIndex.onAttribute(Dealer.CITY));
            cars.addAll(loadCars());
            dealers.addAll(loadDealers());

            // Cars under 20,000 sold by a dealer with more than two stars: one statement.
            try (ResultSet<Car> rs = cars.retrieve(and(lessThan(Car.PRICE, 20_000.0),
                    existsIn(dealers, Car.DEALER_ID, Dealer.DEALER_ID, greaterThan(Dealer.STARS, 2))))) {
                rs.forEach(System.out::println);
            }
            // end::exists-in[]
            try (ResultSet<Car> rs = cars.retrieve(and(lessThan(Car.PRICE, 20_000.0),
                    existsIn(dealers, Car.DEALER_ID, Dealer.DEALER_ID, greaterThan(Dealer.STARS, 2))))) {
                List<Car> want = loadCars().stream()
                        .filter(c -> c.price() < 20_000 && dealerById.get(c.dealerId()).stars() > 2).toList();
                assertTrue(want.size() > 0);
                assertEquals(want.size(), rs.size());
            }
            List<Joined<Car, Dealer>> shown;
            // tag::typed-join[]
            try (Stream<Joined<Car, Dealer>> pairs = db.join(cars, dealers)
                    .on(Car.DEALER_ID, Dealer.DEALER_ID)
                    .whereLeft(lessThan(Car.PRICE, 20_000.0))
                    .whereRight(equal(Dealer.CITY, "Paris"))
                    .stream()) {
                pairs.forEach(p -> System.out.println(p.left() + " at " + p.right()));
            }
            long n = db.join(cars, dealers).on(Car.DEALER_ID, Dealer.DEALER_ID).count();
            // end::typed-join[]
            try (Stream<Joined<Car, Dealer>> pairs = db.join(cars, dealers).on(Car.DEALER_ID, Dealer.DEALER_ID)
                    .whereLeft(lessThan(Car.PRICE, 20_000.0)).whereRight(equal(Dealer.CITY, "Paris")).stream()) {
                shown = pairs.toList();
            }
            long want = loadCars().stream()
                    .filter(c -> c.price() < 20_000 && dealerById.get(c.dealerId()).city().equals("Paris")).count();
            assertTrue(want > 0);
            assertEquals(want, shown.size());
            shown.forEach(p -> assertEquals(p.left().dealerId(), p.right().dealerId()));
            assertEquals(CARS, n);
            // tag::exists-in[]
        }
        // end::exists-in[]
    }
}
