package io.quackjvm.bench.harness;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.bench.model.Car;

import java.nio.file.Path;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * The configurations of {@link Rounds}. When {@code Rounds} compares builds of the library, this class is loaded
 * once per build, in that build's {@link BuildLoader}, so every {@code io.quackjvm.api} name here links to that
 * build; the {@link Subject} it returns is the one interface all builds share.
 *
 * <ul>
 *   <li>{@code quack-db-file}, {@code quack-db-columnar-file}: a collection of a file-backed {@code DuckDBDatabase}
 *       (blob or columnar layout), {@code DuckDBIndex} on manufacturer, model and price, {@code optimize()}d after
 *       the load; the only configurations with aggregates ({@code database.from(cars)});</li>
 *   <li>{@code quack-db-mem}: the blob layout in memory, the same indexes;</li>
 *   <li>any name of {@link Configs} (for example {@code cq-onheap}, {@code cq-disk}, {@code quack-file},
 *       {@code quack-columnar-file}, {@code raw-jdbc-file}): a {@code DuckDBPersistence} of its own for the
 *       quackjvm ones.</li>
 * </ul>
 */
public final class RoundsSubjects {

    /** The configurations this class builds itself; other names come from {@link Configs}. */
    public static final List<String> OWN = List.of("quack-db-file", "quack-db-columnar-file", "quack-db-mem");

    private RoundsSubjects() {
    }

    /** An empty store of configuration {@code name} with its scratch directory {@code dir}. */
    public static Subject create(String name, Path dir) throws Exception {
        return switch (name) {
            case "quack-db-file" -> database(dir, true, false);
            case "quack-db-columnar-file" -> database(dir, true, true);
            case "quack-db-mem" -> database(dir, false, false);
            default -> Configs.get(name).factory.create(dir);
        };
    }

    /** Whether the library of this class loader can read through Arrow (needs the add-opens of java.nio). */
    public static String features() {
        return Configs.libraryFeatures();
    }

    private static String loaderName() {
        ClassLoader l = DuckDBDatabase.class.getClassLoader();
        return l == null || l.getName() == null ? String.valueOf(l) : l.getName();
    }

    private static Subject database(Path dir, boolean file, boolean columnar) {
        DuckDBDatabase.Builder b = DuckDBDatabase.builder();
        if (file) {
            b.file(dir.resolve("quack.duckdb"));
        } else {
            b.inMemory();
        }
        DuckDBDatabase db = b.build();
        var collection = db.collection(Car.CAR_ID).name("car");
        if (columnar) {
            collection.columnarLayout(ColumnarLayout.reflective(Car.class));
        }
        IndexedCollection<Car> cars = collection.build();
        cars.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(DuckDBIndex.onAttribute(Car.MODEL));
        cars.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
        return new CollectionSubject(cars, "index", db::close, file ? dir : null, db::getBytesUsed, db::optimize,
                "DuckDBDatabase collection, " + (columnar ? "columnar" : "blob") + ", DuckDBIndex x3; "
                        + Configs.libraryFeatures() + "; library loaded by " + loaderName()) {
            @Override
            public double sumPrice(String manufacturer) {
                return db.from(cars).where(equal(Car.MANUFACTURER, manufacturer)).sum(Car.PRICE);
            }

            @Override
            public int groupCount() {
                return db.from(cars).groupBy(Car.MANUFACTURER).count().size();
            }
        };
    }
}
