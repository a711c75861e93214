package io.quackjvm.bench.harness;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.bench.model.Car;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * Any CQEngine IndexedCollection, whatever its persistence: every measurement goes through the public CQEngine
 * API exactly as an application would call it (retrieve + iterate + close).
 */
public class CollectionSubject implements Subject {

    protected final IndexedCollection<Car> cars;
    private final String queryMode;
    private final AutoCloseable onClose;
    private final Path dir;
    private final java.util.function.LongSupplier bytesUsed;
    private final Runnable optimize;
    private final String description;

    public CollectionSubject(IndexedCollection<Car> cars, String queryMode, AutoCloseable onClose, Path dir,
                             java.util.function.LongSupplier bytesUsed, Runnable optimize, String description) {
        this.cars = cars;
        this.queryMode = queryMode;
        this.onClose = onClose;
        this.dir = dir;
        this.bytesUsed = bytesUsed;
        this.optimize = optimize;
        this.description = description;
    }

    @Override
    public void load(List<Car> objects) {
        cars.addAll(objects);
    }

    @Override
    public Car lookup(int carId) {
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, carId))) {
            Iterator<Car> it = rs.iterator();
            return it.hasNext() ? it.next() : null;
        }
    }

    private void requireQueries() {
        if (queryMode == null) {
            throw new NotApplicable("no secondary-attribute queries in this configuration");
        }
    }

    private static int drain(ResultSet<Car> rs) {
        int n = 0;
        for (Car c : rs) {
            if (c != null) {
                n++;
            }
        }
        return n;
    }

    @Override
    public int queryEqual(String manufacturer) {
        requireQueries();
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, manufacturer))) {
            return drain(rs);
        }
    }

    @Override
    public int count(String manufacturer) {
        requireQueries();
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, manufacturer))) {
            return rs.size();
        }
    }

    @Override
    public int range(double low, double high) {
        requireQueries();
        try (ResultSet<Car> rs = cars.retrieve(between(Car.PRICE, low, true, high, true))) {
            return drain(rs);
        }
    }

    @Override
    public long iterateAll() {
        try (ResultSet<Car> rs = cars.retrieve(all(Car.class))) {
            return drain(rs);
        }
    }

    @Override
    public void add(Car car) {
        cars.add(car);
    }

    @Override
    public void addAll(List<Car> objects) {
        cars.addAll(objects);
    }

    @Override
    public String queryMode() {
        return queryMode;
    }

    @Override
    public boolean optimize() {
        if (optimize == null) {
            return false;
        }
        optimize.run();
        return true;
    }

    @Override
    public long bytesUsed() {
        return bytesUsed == null ? -1 : bytesUsed.getAsLong();
    }

    @Override
    public long bytesOnDisk() {
        return dir == null ? -1 : sizeOf(dir);
    }

    static long sizeOf(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() throws Exception {
        if (onClose != null) {
            onClose.close();
        }
    }
}
