package io.quackjvm.bench.harness;

import io.quackjvm.bench.model.Car;

import java.util.List;

/**
 * One storage configuration under test, living in its own forked JVM. Every operation that a configuration
 * cannot do throws {@link NotApplicable}; the harness records that as "n/a" with the reason, never as a failure.
 */
public interface Subject extends AutoCloseable {

    /** Thrown for a measurement this configuration does not support (the message says why). */
    final class NotApplicable extends RuntimeException {
        public NotApplicable(String reason) {
            super(reason, null, false, false);
        }
    }

    /** Loads the initial objects into an empty store (addAll, or the configuration's bulk path). */
    void load(List<Car> cars);

    /** The object with this primary key, or null. */
    Car lookup(int carId);

    /** Raw floors only: the stored bytes for this key, without deserialising them. */
    default byte[] lookupBytes(int carId) {
        throw new NotApplicable("only the raw JDBC floor reads bytes without deserialising");
    }

    /** Materialises every object of one manufacturer (~2% of the collection); returns how many. */
    int queryEqual(String manufacturer);

    /** Counts the objects of one manufacturer without materialising them where the backend can. */
    int count(String manufacturer);

    /** Materialises every object with price in [low, high]; returns how many. */
    int range(double low, double high);

    /** Iterates every object; returns how many. */
    long iterateAll();

    /** A single add() of one new object. */
    void add(Car car);

    /** A bulk addAll() of new objects into the loaded store. */
    void addAll(List<Car> cars);

    /** How the secondary-attribute queries are answered: "index", "fallback scan", ... (null: not supported). */
    String queryMode();

    /** Calls the backend's optimize() if it has one; false if it has none. */
    default boolean optimize() {
        return false;
    }

    /** The backend's own size figure in bytes (getBytesUsed), or -1 if it has none. */
    default long bytesUsed() {
        return -1;
    }

    /** Bytes on disk of every file this configuration wrote, or -1 if it writes none. */
    default long bytesOnDisk() {
        return -1;
    }

    /** The sum of price over one manufacturer's objects (~2%), as the configuration's aggregate API answers it. */
    default double sumPrice(String manufacturer) {
        throw new NotApplicable("no aggregate API in this configuration");
    }

    /** The number of groups of a count grouped by manufacturer, over every object. */
    default int groupCount() {
        throw new NotApplicable("no aggregate API in this configuration");
    }

    /** Free-form facts worth recording with the results (feature detection, settings). */
    default String describe() {
        return "";
    }

    @Override
    void close() throws Exception;
}
