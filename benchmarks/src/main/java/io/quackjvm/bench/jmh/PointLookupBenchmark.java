package io.quackjvm.bench.jmh;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.harness.CarCodec;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * Primary-key point lookup: quackjvm through CQEngine's retrieve() against the same SQL on the same file run
 * directly through DuckDB JDBC (one reused prepared statement), with and without deserialising the bytes.
 * The raw statements read the table quackjvm wrote, so storage is identical and only the code path differs.
 *
 * <pre>mvn -q -f benchmarks/pom.xml package exec:exec -Dbench.main=org.openjdk.jmh.Main -Dbench.args="PointLookup"</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-opens=java.base/java.nio=ALL-UNNAMED"})
public class PointLookupBenchmark {

    @Param({"100000"})
    public int objects;

    @Param({"file", "memory"})
    public String storage;

    private Path dir;
    private DuckDBPersistence<Car, Integer> persistence;
    private IndexedCollection<Car> cars;
    private Connection raw;
    private PreparedStatement rawLookup;
    private final CarCodec codec = new CarCodec();
    private int[] keys;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("quackjvm-jmh-");
        persistence = Fixtures.persistence(storage, dir);
        cars = new ConcurrentIndexedCollection<>(persistence);
        cars.addAll(CarGenerator.cars(0, objects));
        if (storage.equals("file")) {
            // The raw floor opens its own database on a copy of the same file, so both read identical storage.
            persistence.compact();
            Path copy = dir.resolve("raw.duckdb");
            Files.copy(dir.resolve("cars.duckdb"), copy);
            raw = DriverManager.getConnection("jdbc:duckdb:" + copy);
        } else {
            raw = DriverManager.getConnection("jdbc:duckdb:");
            try (var s = raw.createStatement()) {
                s.execute("CREATE TABLE \"car\" (_key INTEGER PRIMARY KEY, \"object\" BLOB)");
            }
            try (var appender = raw.unwrap(org.duckdb.DuckDBConnection.class).createAppender("main", "car")) {
                for (Car c : CarGenerator.cars(0, objects)) {
                    appender.beginRow();
                    appender.append(c.getCarId());
                    appender.append(codec.serialize(c));
                    appender.endRow();
                }
            }
        }
        rawLookup = raw.prepareStatement("SELECT \"object\" FROM \"car\" WHERE _key = ?");
        SplittableRandom r = new SplittableRandom(CarGenerator.SEED);
        keys = new int[65536];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = r.nextInt(objects);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        rawLookup.close();
        raw.close();
        persistence.close();
        Worker.deleteRecursively(dir);
    }

    private int key() {
        return keys[next++ & (keys.length - 1)];
    }

    @Benchmark
    public Car quackjvm() {
        try (ResultSet<Car> rs = cars.retrieve(equal(Car.CAR_ID, key()))) {
            Iterator<Car> it = rs.iterator();
            return it.hasNext() ? it.next() : null;
        }
    }

    @Benchmark
    public Car rawJdbcWithKryo() throws SQLException {
        return codec.deserialize(rawBytes());
    }

    @Benchmark
    public byte[] rawJdbcBytesOnly() throws SQLException {
        return rawBytes();
    }

    private byte[] rawBytes() throws SQLException {
        rawLookup.setInt(1, key());
        try (java.sql.ResultSet rs = rawLookup.executeQuery()) {
            return rs.next() ? rs.getBytes(1) : null;
        }
    }
}
