package io.quackjvm.it;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An Iterable that, handed to update(), lets CQEngine add the first object (so the write transaction is open
 * and the collection's write lock held) and then waits until released.
 */
final class PausingBatch implements Iterable<Car> {
    final CountDownLatch firstAdded = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final List<Car> cars;

    PausingBatch(List<Car> cars) {
        this.cars = cars;
    }

    @Override
    public Iterator<Car> iterator() {
        Iterator<Car> it = cars.iterator();
        return new Iterator<>() {
            int served;

            @Override
            public boolean hasNext() {
                if (served == 1) {
                    firstAdded.countDown();
                    try {
                        assertTrue(release.await(60, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return it.hasNext();
            }

            @Override
            public Car next() {
                served++;
                return it.next();
            }
        };
    }
}
