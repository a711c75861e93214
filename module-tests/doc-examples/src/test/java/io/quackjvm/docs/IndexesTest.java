package io.quackjvm.docs;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.navigable.NavigableIndex;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.EngineThresholds;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.applyThresholds;
import static com.googlecode.cqengine.query.QueryFactory.ascending;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.orderBy;
import static com.googlecode.cqengine.query.QueryFactory.queryOptions;
import static com.googlecode.cqengine.query.QueryFactory.threshold;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The examples of docs/indexes.md. */
class IndexesTest extends Shop {

    @Test
    void indexesAndOrdering() {
        // tag::add-indexes[]
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(
                DuckDBPersistence.builder(Car.CAR_ID).memoryLimit("256MB").build());
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));             // scan strategy
        cars.addIndex(DuckDBIndex.onAttributeWithArtIndex(Car.MODEL));        // + DuckDB ART index
        cars.addIndex(NavigableIndex.onAttribute(Car.PRICE));                 // on-heap indexes work beside them
        // end::add-indexes[]
        try {
            cars.addAll(loadCars());
            Query<Car> query = equal(Car.MANUFACTURER, "Ford");
            // tag::index-ordering[]
            try (ResultSet<Car> rs = cars.retrieve(query, queryOptions(orderBy(ascending(Car.PRICE)),
                    applyThresholds(threshold(EngineThresholds.INDEX_ORDERING_SELECTIVITY, 1.0))))) {
                rs.forEach(System.out::println);
            }
            // end::index-ordering[]
            try (ResultSet<Car> rs = cars.retrieve(query, queryOptions(orderBy(ascending(Car.PRICE)),
                    applyThresholds(threshold(EngineThresholds.INDEX_ORDERING_SELECTIVITY, 1.0))))) {
                List<Double> prices = rs.stream().map(Car::price).toList();
                assertEquals(loadCars().stream().filter(c -> c.manufacturer().equals("Ford")).map(Car::price)
                        .sorted(Comparator.naturalOrder()).toList(), prices);
            }
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.MODEL, "Civic"))) {
                assertEquals(loadCars().stream().filter(c -> c.model().equals("Civic")).count(), rs.size());
            }
        } finally {
            ((DuckDBPersistence<?, ?>) cars.getPersistence()).close();
        }
    }
}
