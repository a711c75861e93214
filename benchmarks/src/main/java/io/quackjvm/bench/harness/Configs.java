package io.quackjvm.bench.harness;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.hash.HashIndex;
import com.googlecode.cqengine.index.navigable.NavigableIndex;
import com.googlecode.cqengine.index.unique.UniqueIndex;
import com.googlecode.cqengine.index.disk.DiskIndex;
import com.googlecode.cqengine.index.offheap.OffHeapIndex;
import com.googlecode.cqengine.persistence.disk.DiskPersistence;
import com.googlecode.cqengine.persistence.offheap.OffHeapPersistence;
import io.quackjvm.api.ArrowSupport;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every configuration the harness knows, by name. Adding one is one {@link #add} call: a name, a group (for the
 * "vs" columns), the JVM flags it needs, and a factory that builds an empty store in a scratch directory.
 */
public final class Configs {

    /** What a factory gets: a scratch directory owned by this fork. */
    public interface Factory {
        Subject create(Path dir) throws Exception;
    }

    public static final class Config {
        public final String name;
        public final String description;
        public final List<String> jvmFlags;
        public final Factory factory;
        /** In the default set of a run (others only when named with --configs). */
        public final boolean standard;

        Config(String name, String description, List<String> jvmFlags, Factory factory, boolean standard) {
            this.name = name;
            this.description = description;
            this.jvmFlags = jvmFlags;
            this.factory = factory;
            this.standard = standard;
        }
    }

    /** CQEngine's KryoSerializer (kryo-serializers) reflects into java.util when it is created, on Java 17. */
    static final List<String> CQENGINE_SQLITE_FLAGS = List.of("--add-opens=java.base/java.util=ALL-UNNAMED");
    /** Lets the library's Arrow reader reach java.nio (without it the library reads through JDBC rows). */
    static final List<String> QUACK_FLAGS = List.of("--add-opens=java.base/java.nio=ALL-UNNAMED");

    public static final String ON_HEAP = "cq-onheap";
    public static final String DISK = "cq-disk";
    public static final String DISK_PK = "cq-disk-pk";
    public static final String OFF_HEAP = "cq-offheap";
    public static final String QUACK_MEM = "quack-mem";
    public static final String QUACK_MEM_PK = "quack-mem-pk";
    public static final String QUACK_FILE_PK = "quack-file-pk";

    /**
     * System property of the harness: DuckDB properties ({@code k=v,...}) every quackjvm configuration sets, passed
     * on to the forks (for example {@code threads=1}, to compare DuckDB's scheduling).
     */
    public static final String DUCKDB_PROPERTIES = "bench.duckdb";

    /** Secondary indexes a quackjvm configuration asks for. */
    enum Indexes { NONE, SCAN, ART, COVERING }
    public static final String QUACK_FILE_COVERING = "quack-file-covering";
    public static final String QUACK_COLUMNAR_FILE_COVERING = "quack-columnar-file-covering";
    public static final String QUACK_FILE = "quack-file";
    public static final String QUACK_FILE_256 = "quack-file-256mb";
    public static final String RAW_MEM = "raw-jdbc-mem";
    public static final String RAW_FILE = "raw-jdbc-file";

    /** Same code path as another configuration (only a setting or the index count differs): left out of tiny runs. */
    public static final List<String> TINY_SKIPS = List.of(DISK_PK, QUACK_MEM_PK, QUACK_FILE_256);

    private static final Map<String, Config> ALL = new LinkedHashMap<>();

    static {
        add(ON_HEAP, "CQEngine ConcurrentIndexedCollection on the heap: UniqueIndex(carId), HashIndex(manufacturer, model, colour), NavigableIndex(price)",
                List.of(), dir -> onHeap(), true);
        add(OFF_HEAP, "CQEngine OffHeapPersistence (SQLite in memory) + OffHeapIndex(manufacturer, model, price)",
                CQENGINE_SQLITE_FLAGS, dir -> offHeap(), true);
        add(DISK, "CQEngine DiskPersistence (SQLite file, WAL) + DiskIndex(manufacturer, model, price)",
                CQENGINE_SQLITE_FLAGS, dir -> disk(dir, true), true);
        add(DISK_PK, "CQEngine DiskPersistence with only its primary-key identity index (same index count as quackjvm BLOB today)",
                CQENGINE_SQLITE_FLAGS, dir -> disk(dir, false), true);
        add(QUACK_MEM_PK, "quackjvm BLOB layout, in memory, default settings, primary key only (no secondary indexes)",
                QUACK_FLAGS, dir -> quack(dir, false, null, false, Indexes.NONE), true);
        add(QUACK_FILE_PK, "quackjvm BLOB layout, file-backed, default settings, primary key only (no secondary indexes)",
                QUACK_FLAGS, dir -> quack(dir, true, null, false, Indexes.NONE), true);
        add(QUACK_MEM, "quackjvm BLOB layout, in memory, default settings, DuckDBIndex(manufacturer, model, price)",
                QUACK_FLAGS, dir -> quack(dir, false, null, false, Indexes.SCAN), true);
        add(QUACK_FILE, "quackjvm BLOB layout, file-backed, default settings, DuckDBIndex(manufacturer, model, price)",
                QUACK_FLAGS, dir -> quack(dir, true, null, false, Indexes.SCAN), true);
        add(QUACK_FILE_256, "as quack-file, with memoryLimit(\"256MB\")",
                QUACK_FLAGS, dir -> quack(dir, true, "256MB", false, Indexes.SCAN), true);
        add("quack-columnar-mem", "quackjvm columnar layout, in memory, DuckDBIndex x3",
                QUACK_FLAGS, dir -> quack(dir, false, null, true, Indexes.SCAN), true);
        add("quack-columnar-file", "quackjvm columnar layout, file-backed, DuckDBIndex x3",
                QUACK_FLAGS, dir -> quack(dir, true, null, true, Indexes.SCAN), true);
        add("quack-columnar-file-jdbc", "as quack-columnar-file, without the --add-opens flag: Arrow off, every result read through JDBC rows",
                List.of(), dir -> quack(dir, true, null, true, Indexes.SCAN), true);
        add("quack-columnar-file-256mb", "as quack-columnar-file, with memoryLimit(\"256MB\")",
                QUACK_FLAGS, dir -> quack(dir, true, "256MB", true, Indexes.SCAN), true);
        add(QUACK_FILE_COVERING, "as quack-file, with DuckDBIndex.onAttributeCovering(price) (the index table carries the objects)",
                QUACK_FLAGS, dir -> quack(dir, true, null, false, Indexes.COVERING), true);
        add(QUACK_COLUMNAR_FILE_COVERING, "as quack-columnar-file, with DuckDBIndex.onAttributeCovering(price) (the index table carries every field)",
                QUACK_FLAGS, dir -> quack(dir, true, null, true, Indexes.COVERING), true);
        add("quack-file-art", "as quack-file, with DuckDBIndex.onAttributeWithArtIndex (ART) x3",
                QUACK_FLAGS, dir -> quack(dir, true, null, false, Indexes.ART), false);
        add(RAW_MEM, "raw DuckDB JDBC floor, in memory: same table, same Kryo, same lookup SQL, nothing of ours",
                List.of(), dir -> new RawJdbcSubject(null, null), true);
        add(RAW_FILE, "raw DuckDB JDBC floor, file-backed: same table, same Kryo, same lookup SQL, nothing of ours",
                List.of(), dir -> new RawJdbcSubject(dir, null), true);
    }

    private Configs() {
    }

    static void add(String name, String description, List<String> flags, Factory factory, boolean standard) {
        ALL.put(name, new Config(name, description, flags, factory, standard));
    }

    public static Config get(String name) {
        Config c = ALL.get(name);
        if (c == null) {
            throw new IllegalArgumentException("Unknown configuration '" + name + "'; known: " + ALL.keySet());
        }
        return c;
    }

    public static List<Config> standard() {
        List<Config> out = new ArrayList<>();
        for (Config c : ALL.values()) {
            if (c.standard) {
                out.add(c);
            }
        }
        return out;
    }

    public static List<Config> all() {
        return new ArrayList<>(ALL.values());
    }

    // ------------------------------------------------------------------ factories

    static Subject onHeap() {
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>();
        cars.addIndex(UniqueIndex.onAttribute(Car.CAR_ID));
        cars.addIndex(HashIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(HashIndex.onAttribute(Car.MODEL));
        cars.addIndex(HashIndex.onAttribute(Car.COLOUR));
        cars.addIndex(NavigableIndex.onAttribute(Car.PRICE));
        return new CollectionSubject(cars, "index", null, null, null, null, "on-heap indexes");
    }

    static Subject offHeap() {
        OffHeapPersistence<Car, Integer> p = OffHeapPersistence.onPrimaryKey(Car.CAR_ID);
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        cars.addIndex(OffHeapIndex.onAttribute(Car.MANUFACTURER));
        cars.addIndex(OffHeapIndex.onAttribute(Car.MODEL));
        cars.addIndex(OffHeapIndex.onAttribute(Car.PRICE));
        // (No index on colour: SQLite indexes reject enums.)
        return new CollectionSubject(cars, "index", p::close, null, p::getBytesUsed, null,
                "getBytesUsed = SQLite page_count x page_size of the in-memory database");
    }

    static Subject disk(Path dir, boolean indexes) {
        DiskPersistence<Car, Integer> p = DiskPersistence.onPrimaryKeyInFile(Car.CAR_ID, dir.resolve("cqengine.db").toFile());
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        if (indexes) {
            cars.addIndex(DiskIndex.onAttribute(Car.MANUFACTURER));
            cars.addIndex(DiskIndex.onAttribute(Car.MODEL));
            cars.addIndex(DiskIndex.onAttribute(Car.PRICE));
        }
        return new CollectionSubject(cars, indexes ? "index" : "fallback scan", p::close, dir, p::getBytesUsed, null,
                indexes ? "DiskIndex x3" : "no secondary indexes");
    }

    /**
     * How the library in this JVM reads large results (Arrow needs a JVM flag, so it differs between forks):
     * recorded with every result.
     */
    public static String libraryFeatures() {
        return "Arrow=" + (ArrowSupport.isAvailable() ? "available" : "unavailable: " + ArrowSupport.getUnavailableReason());
    }

    static Subject quack(Path dir, boolean file, String memoryLimit, boolean columnar, Indexes indexes) {
        DuckDBPersistence.Builder<Car, Integer> b = DuckDBPersistence.builder(Car.CAR_ID);
        if (file) {
            b.file(dir.resolve("quack.duckdb"));
        } else {
            b.inMemory();
        }
        if (memoryLimit != null) {
            b.memoryLimit(memoryLimit);
        }
        if (columnar) {
            b.columnarLayout(ColumnarLayout.reflective(Car.class));
        }
        String duckdb = System.getProperty(DUCKDB_PROPERTIES, "");
        for (String kv : duckdb.split(",")) {
            if (kv.contains("=")) {
                b.property(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        DuckDBPersistence<Car, Integer> p = b.build();
        IndexedCollection<Car> cars = new ConcurrentIndexedCollection<>(p);
        String mode;
        String why = "";
        if (indexes != Indexes.NONE) {
            boolean art = indexes == Indexes.ART;
            cars.addIndex(art ? DuckDBIndex.onAttributeWithArtIndex(Car.MANUFACTURER) : DuckDBIndex.onAttribute(Car.MANUFACTURER));
            cars.addIndex(art ? DuckDBIndex.onAttributeWithArtIndex(Car.MODEL) : DuckDBIndex.onAttribute(Car.MODEL));
            cars.addIndex(art ? DuckDBIndex.onAttributeWithArtIndex(Car.PRICE)
                    : indexes == Indexes.COVERING ? DuckDBIndex.onAttributeCovering(Car.PRICE) : DuckDBIndex.onAttribute(Car.PRICE));
            mode = art ? "ART index" : indexes == Indexes.COVERING ? "index (price covering)" : "index";
        } else {
            // Without secondary indexes CQEngine answers these by deserialising every object: labelled as such.
            mode = "fallback scan";
            why = "; no secondary indexes by design";
        }
        return new CollectionSubject(cars, mode, p::close, file ? dir : null, p::getBytesUsed, p::optimize,
                "features: " + libraryFeatures() + (memoryLimit == null ? "" : "; memoryLimit=" + memoryLimit)
                        + (duckdb.isEmpty() ? "" : "; DuckDB properties " + duckdb) + why);
    }
}
