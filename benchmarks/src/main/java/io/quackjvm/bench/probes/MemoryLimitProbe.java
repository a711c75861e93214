package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.util.List;
import java.util.concurrent.Callable;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * Which operations an in-memory collection survives under a small memoryLimit: for each limit (several attempts
 * each, since how much working memory DuckDB's threads hold at once varies), a blob collection of N benchmark cars
 * with a manufacturer index is loaded and put through a primary-key lookup, a primary-key range, a full iteration,
 * an index query, a price range (no DuckDB index: CQEngine filters) and a removal of 1,000; prints a markdown row
 * per attempt with "ok" or "OOM" for each and DuckDB's memory in use after the load. Arguments: N (default
 * 200000), the limits (default 8MB,12MB,16MB,24MB,32MB) and attempts per limit (default 3).
 */
public final class MemoryLimitProbe {

    private MemoryLimitProbe() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        String[] limits = (args.length > 1 ? args[1] : "8MB,12MB,16MB,24MB,32MB").split(",");
        int attempts = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        List<Car> cars = CarGenerator.cars(0, n);
        String maker = cars.get(0).getManufacturer();
        System.out.println("| objects | memoryLimit | attempt | load | pk equal | pk range | iterate all | index equal | "
                + "price range | remove 1,000 | DuckDB memory after load |");
        System.out.println("|--:|--:|--:|---|---|---|---|---|---|---|--:|");
        for (String limit : limits) {
            for (int attempt = 1; attempt <= attempts; attempt++) {
                StringBuilder row = new StringBuilder("| " + String.format("%,d", n) + " | " + limit + " | " + attempt);
                try (DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).memoryLimit(limit).build()) {
                    IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
                    coll.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
                    boolean loaded = step(row, () -> coll.addAll(cars));
                    step(row, () -> count(coll.retrieve(equal(Car.CAR_ID, n / 2))));
                    step(row, () -> count(coll.retrieve(between(Car.CAR_ID, 5, 5_000))));
                    step(row, () -> {
                        int k = 0;
                        for (Car c : coll) {
                            k++;
                        }
                        return k;
                    });
                    step(row, () -> count(coll.retrieve(equal(Car.MANUFACTURER, maker))));
                    step(row, () -> count(coll.retrieve(between(Car.PRICE, 5_000.0, 6_000.0))));
                    step(row, () -> coll.removeAll(cars.subList(0, 1_000)));
                    row.append(" | ").append(loaded ? String.format("%.1f MB", p.getBytesUsed() / 1e6) : "-");
                }
                System.out.println(row.append(" |"));
            }
        }
    }

    private static int count(ResultSet<Car> rs) {
        try (rs) {
            int k = 0;
            for (Car c : rs) {
                k++;
            }
            return k;
        }
    }

    private static boolean step(StringBuilder row, Callable<Object> step) {
        try {
            step.call();
            row.append(" | ok");
            return true;
        } catch (Exception e) {
            String m = String.valueOf(e.getMessage());
            row.append(m.contains("memoryLimit") ? " | OOM" : " | failed: " + m.substring(0, Math.min(60, m.length())));
            return false;
        }
    }
}
