package io.quackjvm.micrometer;

import com.googlecode.cqengine.IndexedCollection;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quackjvm.api.DuckDBDatabase;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a Prometheus scrape of the meters shows. */
class PrometheusScrapeTest {

    @Test
    void aLookupIsScrapedUnderItsCollectionOperationAndOutcome() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (DuckDBDatabase db = DuckDBDatabase.builder().build();
             QuackMetrics metrics = new QuackMetrics(db)) {
            IndexedCollection<Car> cars = QuackMetricsTest.cars(db, "car", 10, 0);
            metrics.bindTo(registry);
            assertEquals(4, QuackMetricsTest.lookup(cars, 4).carId());

            String scrape = registry.scrape();
            assertTrue(scrape.contains(
                    "quackjvm_operations_seconds_count{collection=\"car\",operation=\"lookup\",outcome=\"success\"} 1"),
                    scrape);
            assertTrue(scrape.contains("quackjvm_operations_seconds_sum{collection=\"car\",operation=\"lookup\""),
                    scrape);
            assertTrue(scrape.contains("quackjvm_pool_connections_idle "), scrape);
            assertTrue(scrape.contains("quackjvm_cache_hits_total{collection=\"car\"} 0.0\n"), scrape);
            assertTrue(scrape.contains("quackjvm_bytes_used_bytes "), scrape);
        } finally {
            registry.close();
        }
    }
}
