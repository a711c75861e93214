package io.quackjvm.bench.jmh;

import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;

import java.nio.file.Path;

/** What the JMH benchmarks set up alike. */
final class Fixtures {

    private Fixtures() {
    }

    /** quackjvm with default settings: in {@code dir/cars.duckdb} for {@code "file"}, else in memory. */
    static DuckDBPersistence<Car, Integer> persistence(String storage, Path dir) {
        DuckDBPersistence.Builder<Car, Integer> b = DuckDBPersistence.builder(Car.CAR_ID);
        if (storage.equals("file")) {
            b.file(dir.resolve("cars.duckdb"));
        } else {
            b.inMemory();
        }
        return b.build();
    }
}
