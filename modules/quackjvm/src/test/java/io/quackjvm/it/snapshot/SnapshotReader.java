package io.quackjvm.it.snapshot;

import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.it.Car;

import java.nio.file.Path;
import java.util.TreeSet;

import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * Run in a child JVM: opens a snapshot for reading only, with the library, and prints what it serves: the number
 * of cars, the sum of their ids, the number of cars of one manufacturer through its index, and the count by SQL.
 * Stays open until told to stop on standard input, so that several of these read one file at once.
 */
public final class SnapshotReader {

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(file).readOnly().build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).build();
            cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            TreeSet<Integer> ids = new TreeSet<>();
            cars.forEach(c -> ids.add(c.carId()));
            long idSum = ids.stream().mapToLong(Integer::longValue).sum();
            int ofMaker;
            try (ResultSet<Car> rs = cars.retrieve(equal(Car.MANUFACTURER, Car.of(1).manufacturer()))) {
                ofMaker = rs.size();
            }
            long bySql = db.query("SELECT count(*) FROM car").scalar(Long.class);
            System.out.println("open");
            System.out.flush();
            // every reader holds the file open until the parent has seen them all open at once
            System.in.read();
            System.out.println("served " + ids.size() + " " + idSum + " " + ofMaker + " " + bySql);
        }
    }
}
