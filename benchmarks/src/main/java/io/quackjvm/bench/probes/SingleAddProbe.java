package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.ObjectLockingIndexedCollection;
import com.googlecode.cqengine.index.offheap.OffHeapIndex;
import com.googlecode.cqengine.persistence.offheap.OffHeapPersistence;
import com.googlecode.cqengine.query.QueryFactory;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.harness.CarCodec;
import io.quackjvm.bench.harness.Timer;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the time of one {@code add()} goes. One JVM per storage (file, memory); every sample adds one new car to
 * each subject in rotation (the starting subject moves on by one each sample), so a busy machine slows all of
 * them alike:
 * <ul>
 *   <li>the floor: a raw auto-committed {@code INSERT} of the same row (blob table shaped like ours), on a reused
 *       prepared statement, and the same statement wrapped in the steps an explicit transaction adds
 *       ({@code BEGIN}, the replace-or-insert {@code SELECT}, {@code COMMIT}), each on a table of its own;</li>
 *   <li>quackjvm through CQEngine: blob, primary key only; columnar, primary key only; blob and columnar with
 *       three {@code DuckDBIndex}es;</li>
 *   <li>CQEngine OffHeapPersistence (SQLite in memory) for reference.</li>
 * </ul>
 * Then ({@code objectlocking}) CQEngine's functional-scenario style workload on an
 * {@code ObjectLockingIndexedCollection}, one object at a time: ours in memory against OffHeapPersistence.
 * Arguments: {@code N} preloaded objects (default 100,000), samples (default 1,000), an output file
 * (default {@code results/raw/single-add/run.md}), storages ({@code file,memory}). Run with
 * {@code --add-opens=java.base/java.util=ALL-UNNAMED} (OffHeapPersistence's Kryo).
 */
public final class SingleAddProbe {

    private interface Adder {
        void add(Car car) throws Exception;
    }

    private SingleAddProbe() {
    }

    public static void main(String[] args) throws Exception {
        int n = ProbeReport.intArg(args, 0, 100_000);
        int samples = ProbeReport.intArg(args, 1, 1_000);
        Path out = Paths.get(ProbeReport.arg(args, 2, "results/raw/single-add/run.md"));
        String storages = ProbeReport.arg(args, 3, "file,memory,objectlocking");
        StringBuilder md = ProbeReport.generatedBy(SingleAddProbe.class, n, samples)
                .append("; load average ").append(Worker.loadAverage()).append(" at the start");
        long t0 = System.nanoTime();
        for (String storage : storages.split(",")) {
            if (storage.equals("objectlocking")) {
                objectLocking(md, Math.max(5, samples / 50));
            } else {
                singleAdds(md, storage.equals("file"), n, samples);
            }
        }
        ProbeReport.finish(md, t0, out);
        System.exit(0);
    }

    private static void singleAdds(StringBuilder md, boolean file, int n, int samples) throws Exception {
        Path dir = Files.createTempDirectory("quackjvm-single-add-");
        List<AutoCloseable> closers = new ArrayList<>();
        Map<String, Adder> subjects = new LinkedHashMap<>();
        try {
            List<Car> cars = CarGenerator.cars(0, n);
            Raw raw = new Raw(file ? dir.resolve("raw.duckdb") : null, cars);
            closers.add(raw);
            subjects.put("raw: INSERT, auto-commit", c -> raw.run(raw.insert[0], c));
            subjects.put("raw: INSERT ... ON CONFLICT DO NOTHING, auto-commit", c -> raw.run(raw.insertOrIgnore, c));
            subjects.put("raw: BEGIN, INSERT, COMMIT", c -> {
                raw.exec("BEGIN TRANSACTION");
                raw.run(raw.insert[2], c);
                raw.exec("COMMIT");
            });
            subjects.put("raw: BEGIN, SELECT by key, INSERT, COMMIT", c -> {
                raw.exec("BEGIN TRANSACTION");
                raw.select(c.getCarId());
                raw.run(raw.insert[3], c);
                raw.exec("COMMIT");
            });
            for (String[] q : new String[][]{{"blob", "0"}, {"columnar", "0"}, {"blob", "3"}, {"columnar", "3"}}) {
                boolean columnar = q[0].equals("columnar");
                boolean indexed = q[1].equals("3");
                DuckDBPersistence.Builder<Car, Integer> b = DuckDBPersistence.builder(Car.CAR_ID);
                if (file) {
                    b.file(dir.resolve(q[0] + q[1] + ".duckdb"));
                }
                if (columnar) {
                    b.columnarLayout(ColumnarLayout.reflective(Car.class));
                }
                DuckDBPersistence<Car, Integer> p = b.build();
                closers.add(p::close);
                IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
                if (indexed) {
                    coll.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
                    coll.addIndex(DuckDBIndex.onAttribute(Car.MODEL));
                    coll.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
                }
                coll.addAll(cars);
                subjects.put("quackjvm: " + q[0] + (indexed ? ", 3 DuckDBIndexes" : ", primary key only"), coll::add);
            }
            if (!file) {
                OffHeapPersistence<Car, Integer> p = OffHeapPersistence.onPrimaryKey(Car.CAR_ID);
                closers.add(p::close);
                IndexedCollection<Car> coll = new ConcurrentIndexedCollection<>(p);
                coll.addAll(cars);
                subjects.put("CQEngine OffHeapPersistence, primary key only", coll::add);
            }
            cars = null;
            List<String> names = new ArrayList<>(subjects.keySet());
            List<Adder> adders = new ArrayList<>(subjects.values());
            long[][] t = new long[names.size()][samples];
            int warm = Math.min(50, samples / 5);
            for (int i = 0; i < warm + samples; i++) {
                Car car = CarGenerator.car(n + i);
                for (int j = 0; j < adders.size(); j++) {
                    int s = (i + j) % adders.size();
                    long a = System.nanoTime();
                    adders.get(s).add(car);
                    long d = System.nanoTime() - a;
                    if (i >= warm) {
                        t[s][i - warm] = d;
                    }
                }
            }
            double floor = new Timer.Stats(t[0]).median() / 1e3;
            double blob = new Timer.Stats(t[names.indexOf("quackjvm: blob, primary key only")]).median() / 1e3;
            md.append("\n\n## ").append(file ? "File" : "In memory").append(": one add of a new key, ").append(n)
                    .append(" objects preloaded, ").append(samples).append(" interleaved samples\n\n")
                    .append("| subject | p50 µs | p90 µs | ÷ raw INSERT | ÷ quackjvm blob |\n|---|--:|--:|--:|--:|\n");
            for (int s = 0; s < names.size(); s++) {
                Timer.Stats st = new Timer.Stats(t[s]);
                double p50 = st.median() / 1e3;
                md.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | %.2f× | %.2f× |%n", names.get(s), p50,
                        st.percentile(90) / 1e3, p50 / floor, p50 / blob));
            }
        } finally {
            for (int i = closers.size() - 1; i >= 0; i--) {
                closers.get(i).close();
            }
            Worker.deleteRecursively(dir);
        }
    }

    /**
     * CQEngine's functional scenarios, as its own test suite runs them against each persistence: a fresh
     * {@code ObjectLockingIndexedCollection} with indexes, objects added and removed one at a time, a few queries.
     */
    private static void objectLocking(StringBuilder md, int rounds) throws Exception {
        int objects = 200;
        long[][] t = new long[2][rounds];
        long[][] w = new long[2][rounds];
        for (int r = 0; r < rounds + 2; r++) {
            for (int j = 0; j < 2; j++) {
                int s = (r + j) % 2;
                long[] writeNs = new long[1];
                long a = System.nanoTime();
                scenario(s == 0, objects, writeNs);
                long d = System.nanoTime() - a;
                if (r >= 2) {
                    t[s][r - 2] = d;
                    w[s][r - 2] = writeNs[0];
                }
            }
        }
        double ours = new Timer.Stats(t[0]).median() / 1e6;
        double theirs = new Timer.Stats(t[1]).median() / 1e6;
        double oursW = new Timer.Stats(w[0]).median() / 1e6;
        double theirsW = new Timer.Stats(w[1]).median() / 1e6;
        md.append("\n\n## ObjectLockingIndexedCollection, functional-scenario style, in memory\n\n")
                .append("Per round: a new collection with 3 indexes, ").append(objects)
                .append(" cars added one at a time (addAll), 4 queries, ").append(objects / 4)
                .append(" removed one at a time, ").append(objects / 4).append(" replaced by update(), closed. ")
                .append(rounds).append(" interleaved rounds, medians.\n\n")
                .append("| subject | round ms | writes ms |\n|---|--:|--:|\n")
                .append(String.format(Locale.ROOT, "| quackjvm (in memory, DuckDBIndex x3) | %.1f | %.1f |%n", ours, oursW))
                .append(String.format(Locale.ROOT, "| CQEngine OffHeapPersistence (OffHeapIndex x3) | %.1f | %.1f |%n", theirs, theirsW))
                .append(String.format(Locale.ROOT, "| ratio | %.2f× | %.2f× |%n", ours / theirs, oursW / theirsW));
    }

    private static void scenario(boolean quack, int objects, long[] writeNs) throws Exception {
        AutoCloseable close;
        IndexedCollection<Car> coll;
        if (quack) {
            DuckDBPersistence<Car, Integer> p = DuckDBPersistence.builder(Car.CAR_ID).build();
            close = p::close;
            coll = new ObjectLockingIndexedCollection<>(p);
            coll.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
            coll.addIndex(DuckDBIndex.onAttribute(Car.MODEL));
            coll.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
        } else {
            OffHeapPersistence<Car, Integer> p = OffHeapPersistence.onPrimaryKey(Car.CAR_ID);
            close = p::close;
            coll = new ObjectLockingIndexedCollection<>(p);
            coll.addIndex(OffHeapIndex.onAttribute(Car.MANUFACTURER));
            coll.addIndex(OffHeapIndex.onAttribute(Car.MODEL));
            coll.addIndex(OffHeapIndex.onAttribute(Car.PRICE));
        }
        try {
            List<Car> cars = CarGenerator.cars(0, objects);
            long a = System.nanoTime();
            coll.addAll(cars);
            long writes = System.nanoTime() - a;
            int seen = 0;
            for (int i = 0; i < 4; i++) {
                try (ResultSet<Car> rs = coll.retrieve(QueryFactory.equal(Car.MANUFACTURER, CarGenerator.manufacturer(i)))) {
                    seen += rs.size();
                }
            }
            if (seen == 0) {
                throw new IllegalStateException("no results");
            }
            a = System.nanoTime();
            coll.removeAll(cars.subList(0, objects / 4));
            for (int i = objects / 4; i < objects / 2; i++) {
                Car old = cars.get(i);
                Car replacement = CarGenerator.car(i + 1_000_000);
                coll.update(List.of(old), List.of(new Car(old.getCarId(), replacement.getManufacturer(),
                        replacement.getModel(), replacement.getColour(), replacement.getDoors(), replacement.getPrice(),
                        replacement.getFeatures(), replacement.getYear())));
            }
            writes += System.nanoTime() - a;
            if (coll.size() != objects - objects / 4) {
                throw new IllegalStateException("size " + coll.size());
            }
            writeNs[0] = writes;
        } finally {
            close.close();
        }
    }

    /** The raw floor: the blob table shaped as quackjvm's, four copies so each variant inserts into its own. */
    private static final class Raw implements AutoCloseable {
        final Connection connection;
        final PreparedStatement[] insert = new PreparedStatement[4];
        final PreparedStatement insertOrIgnore;
        final PreparedStatement select;
        final CarCodec codec = new CarCodec();

        Raw(Path file, List<Car> cars) throws SQLException {
            connection = DriverManager.getConnection("jdbc:duckdb:");
            try (Statement s = connection.createStatement()) {
                if (file != null) {
                    s.execute("ATTACH '" + file + "' AS raw (ROW_GROUP_SIZE 16384)");
                    s.execute("USE raw");
                }
                for (int i = 0; i < 5; i++) {
                    s.execute("CREATE TABLE car" + i + " (_key INTEGER PRIMARY KEY, object BLOB USING COMPRESSION uncompressed)");
                    try (DuckDBAppender app = connection.unwrap(DuckDBConnection.class)
                            .createAppender(DuckDBConnection.DEFAULT_SCHEMA, "car" + i)) {
                        for (Car c : cars) {
                            app.beginRow();
                            app.append(c.getCarId());
                            app.append(codec.serialize(c));
                            app.endRow();
                        }
                    }
                }
            }
            for (int i = 0; i < 4; i++) {
                insert[i] = connection.prepareStatement("INSERT INTO car" + i + " VALUES (?, ?)");
            }
            insertOrIgnore = connection.prepareStatement("INSERT INTO car4 VALUES (?, ?) ON CONFLICT DO NOTHING");
            select = connection.prepareStatement("SELECT object, _key FROM car3 WHERE _key IN (?)");
        }

        void run(PreparedStatement ps, Car c) throws SQLException {
            ps.setInt(1, c.getCarId());
            ps.setBytes(2, codec.serialize(c));
            ps.executeUpdate();
        }

        void select(int key) throws SQLException {
            select.setInt(1, key);
            try (java.sql.ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    rs.getBytes(1);
                }
            }
        }

        void exec(String sql) throws SQLException {
            try (Statement s = connection.createStatement()) {
                s.execute(sql);
            }
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }
}
