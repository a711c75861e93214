package io.quackjvm.it.bulk;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;

import java.nio.file.Path;
import java.util.Iterator;

/**
 * The child JVM of {@link BulkCrashTest}: opens the file, commits loads of {@code n} cars each (ids continuing
 * from what is stored), printing {@code COMMITTED <size>} after each, then starts one more load that never ends,
 * printing {@code LOADING} once it has written several chunks into its transaction. The parent kills it with
 * SIGKILL. Arguments: file, n, loads to commit.
 */
public final class BulkCrashWorker {

    static final int CHUNK = 500;

    private BulkCrashWorker() {
    }

    static DuckDBPersistence<Car, Integer> open(Path file) {
        return DuckDBPersistence.builder(Car.CAR_ID).file(file).stagingChunkRows(CHUNK).build();
    }

    static IndexedCollection<Car> collection(DuckDBPersistence<Car, Integer> p) {
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(DuckDBIndex.onAttribute(Car.FEATURES));
        return cars;
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        int loads = Integer.parseInt(args[2]);
        DuckDBPersistence<Car, Integer> p = open(file);
        IndexedCollection<Car> cars = collection(p);
        int next = cars.size();
        for (int l = 0; l < loads; l++) {
            try (DuckDBBulkWriter<Car> w = p.bulkWriter()) {
                for (int i = 0; i < n; i++) {
                    w.add(Car.of(next++));
                }
                w.commit();
            }
            System.out.println("COMMITTED " + cars.size());
        }
        int start = next;
        DuckDBBulkWriter<Car> w = p.bulkWriter();
        w.addAll(() -> new Iterator<>() {
            int id = start;
            @Override public boolean hasNext() { return true; }
            @Override public Car next() {
                if (id == start + 6 * CHUNK) {
                    System.out.println("LOADING");
                    System.out.flush();
                }
                return Car.of(id++);
            }
        });
    }
}
