package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What the object cache costs in heap: the Java heap in use (after full collections) before and after
 * {@code objectCacheSize(N)} is filled with N cars by lookups, against the same N cars held in a plain
 * {@code HashMap<Integer, Car>}. Arguments: {@code N} (default 200,000), output directory (default
 * {@code results/raw/object-cache}); writes {@code heap.md} there. Run with {@code -XX:+UseSerialGC} so that the heap
 * in use after a collection is exact.
 */
public final class ObjectCacheHeapProbe {

    private ObjectCacheHeapProbe() {
    }

    private static long used() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 200_000;
        Path out = Paths.get(args.length > 1 ? args[1] : "results/raw/object-cache");
        long cacheBytes;
        try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).objectCacheSize(n).build()) {
            IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
            for (int from = 0; from < n; from += 50_000) {
                cars.addAll(CarGenerator.cars(from, Math.min(50_000, n - from)));
            }
            long before = used();
            for (int k = 0; k < n; k++) {
                ObjectCacheProbe.lookup(cars, k);
            }
            long after = used();
            cacheBytes = after - before;
            if (p.cacheStats().size() != n) {
                throw new IllegalStateException("cache holds " + p.cacheStats());
            }
        }
        long before = used();
        Map<Integer, Car> map = new HashMap<>();
        for (Car c : CarGenerator.cars(0, n)) {
            map.put(c.getCarId(), c);
        }
        long mapBytes = used() - before;
        String md = String.format(Locale.ROOT, "# Object cache: heap per cached object%n%nProduced by "
                        + "`probes.ObjectCacheHeapProbe %d` (-XX:+UseSerialGC), %s, shared 2-core machine. Heap in use "
                        + "after full collections.%n%n| what | heap | per object |%n|---|---:|---:|%n"
                        + "| objectCacheSize(%d) filled by %,d lookups | %.1f MB | %d bytes |%n"
                        + "| the same cars in a HashMap<Integer, Car> | %.1f MB | %d bytes |%n"
                        + "| cache overhead beyond the objects and a map | | %d bytes |%n",
                n, LocalDateTime.now().withNano(0), n, n, cacheBytes / 1e6, cacheBytes / n, mapBytes / 1e6,
                mapBytes / n, (cacheBytes - mapBytes) / n);
        Files.createDirectories(out);
        Files.writeString(out.resolve("heap.md"), md);
        System.out.print(md);
        if (map.size() != n) {
            throw new IllegalStateException();
        }
    }
}
