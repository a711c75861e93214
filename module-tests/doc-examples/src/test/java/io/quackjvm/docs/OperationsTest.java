package io.quackjvm.docs;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBOptions;
import io.quackjvm.api.Operation;
import io.quackjvm.api.OperationListener;
import io.quackjvm.api.QueryTimeoutException;
import io.quackjvm.micrometer.QuackMetrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.queryOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The examples of docs/operations.md. */
class OperationsTest extends Shop {

    @Test
    void timeoutsAdmissionAndSlowStatements() {
        // tag::builder[]
        DuckDBDatabase db = DuckDBDatabase.builder()
                .queryTimeout(Duration.ofSeconds(10))            // every query, unless a call says otherwise
                .slowStatementThreshold(Duration.ofMillis(200))  // a WARN on io.quackjvm.slow from 200 ms
                .maxConcurrentQueries(2)                         // at most 2 queries at once ...
                .admissionTimeout(Duration.ofSeconds(5))         // ... and 5 s to wait for a turn
                .build();
        // end::builder[]
        try (db) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addAll(loadCars());
            // tag::timeouts[]
            try (ResultSet<Car> fords = cars.retrieve(equal(Car.MANUFACTURER, "Ford"),
                    queryOptions(DuckDBOptions.timeout(Duration.ofSeconds(2))))) {
                fords.forEach(System.out::println);
            }
            Map<String, Long> perMaker = db.from(cars)
                    .with(DuckDBOptions.timeout(Duration.ofSeconds(2)))
                    .groupBy(Car.MANUFACTURER).count();
            try {
                db.query("SELECT sum(hash(i)) FROM range(1000000000000) t(i)")
                        .timeout(Duration.ofMillis(500))
                        .scalar(Long.class);
            } catch (QueryTimeoutException e) {
                System.out.println("cancelled: " + e.getMessage());
            }
            // end::timeouts[]
            assertEquals(500L, perMaker.get("Ford"));
            assertThrows(QueryTimeoutException.class, () -> db.query(
                    "SELECT sum(hash(i)) FROM range(1000000000000) t(i)")
                    .timeout(Duration.ofMillis(500)).scalar(Long.class));

            // tag::explain[]
            String plan = db.explain(cars, and(equal(Car.MANUFACTURER, "Ford"), greaterThan(Car.PRICE, 30_000.0)));
            System.out.println(plan);
            // Query: and(equal("manufacturer", "Ford"), greaterThan("price", 30000.0))
            // Answered by: DuckDB, one statement (when few objects match, their keys first and then the objects by key)
            // Filtered in Java: greaterThan("price", 30000.0) (...)
            // Ordered in Java: no
            // Statement: SELECT ...
            // Plan: ...
            String sqlPlan = db.query("SELECT manufacturer, count(*) FROM car GROUP BY 1").explain();
            // end::explain[]
            assertTrue(plan.contains("Filtered in Java: greaterThan("), plan);
            assertTrue(sqlPlan.contains("car"), sqlPlan);
        }
    }

    @Test
    void listeners() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            cars.addAll(loadCars());
            // tag::listener[]
            AtomicLong lookupNanos = new AtomicLong();
            db.addListener(new OperationListener() {
                @Override
                public void operationEnded(String collection, Operation operation, long nanos, long rows,
                                           boolean failed) {
                    if (operation == Operation.LOOKUP) {
                        lookupNanos.addAndGet(nanos);
                    }
                }
            });
            // end::listener[]
            cars.retrieve(equal(Car.CAR_ID, 7)).forEach(c -> { });
            assertTrue(lookupNanos.get() > 0);
        }
    }

    @Test
    void micrometer() {
        try (DuckDBDatabase db = DuckDBDatabase.builder().build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").objectCacheSize(100).build();
            cars.addAll(loadCars());
            // tag::micrometer[]
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            QuackMetrics metrics = new QuackMetrics(db, Tags.of("service", "shop"));
            metrics.bindTo(registry);

            try (ResultSet<Car> car = cars.retrieve(equal(Car.CAR_ID, 7))) {
                car.forEach(System.out::println);
            }
            String scrape = registry.scrape();   // what GET /metrics would serve
            // end::micrometer[]
            try (metrics) {
                assertTrue(scrape.contains("quackjvm_operations_seconds_count{collection=\"car\",operation=\"lookup\","
                        + "outcome=\"success\",service=\"shop\"} 1"), scrape);
                assertTrue(scrape.contains("quackjvm_pool_connections_idle{service=\"shop\"} 1.0"), scrape);
                assertTrue(scrape.contains("quackjvm_cache_hits_total{collection=\"car\",service=\"shop\"} 0.0"),
                        scrape);
                assertTrue(scrape.contains("quackjvm_cache_misses_total{collection=\"car\",service=\"shop\"} 1.0"),
                        scrape);
            } finally {
                registry.close();
            }
        }
    }
}
