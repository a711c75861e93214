package io.quackjvm.it.lifecycle;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.support.CloseableIterator;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;

import java.util.ArrayList;
import java.util.List;

/**
 * The child JVM of {@link OpenResultsTest}: keeps {@code open} iterators over an in-memory collection of
 * {@code n} cars open at once, each read one object before the next is opened, then reads every one to its end
 * and prints {@code READ <objects read in all>}. Arguments: n, open.
 */
public final class OpenResultsWorker {

    private OpenResultsWorker() {
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int open = Integer.parseInt(args[1]);
        long read = 0;
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            List<Car> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(Car.of(i));
            }
            cars.addAll(all);
            List<CloseableIterator<Car>> iterators = new ArrayList<>();
            for (int i = 0; i < open; i++) {
                CloseableIterator<Car> it = (CloseableIterator<Car>) cars.iterator();
                it.next();
                read++;
                iterators.add(it);
            }
            for (CloseableIterator<Car> it : iterators) {
                while (it.hasNext()) {
                    it.next();
                    read++;
                }
                it.close();
            }
        }
        System.out.println("READ " + read);
    }
}
