package io.quackjvm.it.bulk;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.it.Car;

import java.nio.file.Path;
import java.util.Iterator;

/**
 * The child JVM of {@link SlicedLoadCrashTest}: a sliced load ({@code commitEvery}) of cars {@code 0 .. n-1}, in
 * order, through a bulk importer (a key stored twice would fail it). Prints {@code RESUMED <skipped>} first. With a
 * stall slice {@code s}, it stops half way through slice {@code s + 1} (so that slice is open, with rows in its
 * transaction), prints {@code STALLED} and waits to be killed; otherwise it loads to the end, commits and prints
 * {@code DONE <size>}. Arguments: file, n, slice, stall slice (or -1).
 */
public final class SlicedLoadWorker {

    private SlicedLoadWorker() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        int slice = Integer.parseInt(args[2]);
        int stall = Integer.parseInt(args[3]);
        DuckDBPersistence<Car, Integer> p = BulkCrashWorker.open(file);
        IndexedCollection<Car> cars = BulkCrashWorker.collection(p);
        DuckDBBulkWriter<Car> w = p.bulkImporter().commitEvery(slice);
        System.out.println("RESUMED " + w.resumedAfter());
        System.out.flush();
        w.addAll(() -> new Iterator<>() {
            int id;

            @Override
            public boolean hasNext() {
                return id < n;
            }

            @Override
            public Car next() {
                if (stall >= 0 && id == stall * slice + slice / 2) {
                    System.out.println("STALLED");
                    System.out.flush();
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return Car.of(id++);
            }
        });
        w.commit();
        System.out.println("DONE " + cars.size());
        w.close();
        p.close();
    }
}
