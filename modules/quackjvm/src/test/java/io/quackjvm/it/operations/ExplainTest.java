package io.quackjvm.it.operations;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.UnsafeQueryException;
import io.quackjvm.it.Car;
import org.junit.jupiter.api.Test;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code explain}: how a CQEngine query and a SQL text are answered, with DuckDB's plan; nothing runs. */
class ExplainTest {

    @Test
    void aCqengineQuerySaysWhatDuckDBAnswersAndWhatJavaFilters() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = TimeoutsTest.cars(db, "car", 100);
            String whole = db.explain(cars, equal(Car.MANUFACTURER, "Ford"));
            assertTrue(whole.contains("Answered by: DuckDB"), whole);
            assertTrue(whole.contains("Filtered in Java: nothing"), whole);
            assertTrue(whole.contains("Statement: SELECT"), whole);
            assertTrue(whole.contains("SCAN"), "DuckDB's plan is missing: " + whole);

            // price has no DuckDBIndex: SQL cannot see it, Java filters it
            String part = db.explain(cars, and(equal(Car.MANUFACTURER, "Ford"), greaterThan(Car.PRICE, 6000.0)));
            assertTrue(part.contains("Filtered in Java: greaterThan("), part);

            String byKey = db.explain(cars, equal(Car.CAR_ID, 5));
            assertTrue(byKey.contains("Answered by: the primary key"), byKey);
            assertTrue(byKey.contains("Plan:"), byKey);

            // nothing was retrieved or changed
            assertEquals(100, cars.size());
        }
    }

    @Test
    void aSqlTextIsExplainedAfterTheSameChecksAsARun() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            TimeoutsTest.cars(db, "car", 10);
            String plan = db.query("SELECT manufacturer, count(*) FROM car WHERE carId > ? GROUP BY 1", 3).explain();
            assertTrue(plan.contains("AGGREGATE") || plan.contains("GROUP_BY"), plan);
            assertThrows(UnsafeQueryException.class, () -> db.query("SELECT * FROM read_csv('/etc/passwd')").explain());
        }
    }
}
