package io.quackjvm.docs;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.TransactionalIndexedCollection;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example of docs/database.md. */
class DatabaseTest extends Shop {

    @Test
    void oneDatabaseManyCollections() {
        // tag::builders[]
        try (DuckDBDatabase db = DuckDBDatabase.builder()        // database-wide settings
                .file(Path.of("shop.duckdb"))
                .memoryLimit("512MB")
                .build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID)       // per-collection settings
                    .name("car")
                    .columnarLayout(ColumnarLayout.ofRecord(Car.class))
                    .build();                                             // an IndexedCollection
            DuckDBPersistence<Dealer, Integer> dealerStore = db.collection(Dealer.DEALER_ID)
                    .name("dealer")
                    .buildPersistence();                                  // for ObjectLocking/Transactional collections
            IndexedCollection<Dealer> dealers = new TransactionalIndexedCollection<>(Dealer.class, dealerStore);
            cars.addAll(loadCars());
            dealers.addAll(loadDealers());
            System.out.println(db.describe());
            // end::builders[]
            assertEquals(List.of("car", "dealer"), db.collectionNames().stream().sorted().toList());
            assertEquals(new HashSet<>(loadCars()), new HashSet<>(cars));
            assertEquals(new HashSet<>(loadDealers()), new HashSet<>(dealers));
            assertTrue(db.describe().contains("car") && db.describe().contains("dealer"), db.describe());
            // tag::builders[]
        }
        // end::builders[]
    }
}
