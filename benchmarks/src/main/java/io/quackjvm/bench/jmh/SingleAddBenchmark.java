package io.quackjvm.bench.jmh;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
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
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * One add() of a new object, and where its time goes: quackjvm's add() against the same {@code INSERT OR IGNORE}
 * run directly through DuckDB JDBC, auto-committed, in an explicit transaction, and in an explicit transaction
 * opened with an un-prepared {@code SELECT 1} (what quackjvm's RequestScope does to start a write transaction),
 * and against a plain {@code INSERT}.
 *
 * <pre>mvn -q -f benchmarks/pom.xml package exec:exec -Dbench.main=org.openjdk.jmh.Main -Dbench.args=SingleAdd</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class SingleAddBenchmark {

    @Param({"file", "memory"})
    public String storage;

    private Path dir;
    private DuckDBPersistence<Car, Integer> persistence;
    private IndexedCollection<Car> cars;
    private Connection raw;
    private PreparedStatement insert;
    private PreparedStatement plainInsert;
    private final CarCodec codec = new CarCodec();
    private int nextQuack = 1_000_000;
    private int nextRaw = 1_000_000;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("quackjvm-jmh-add-");
        persistence = Fixtures.persistence(storage, dir);
        cars = new ConcurrentIndexedCollection<>(persistence);
        cars.addAll(CarGenerator.cars(0, 10_000));
        raw = DriverManager.getConnection(storage.equals("file") ? "jdbc:duckdb:" + dir.resolve("raw.duckdb") : "jdbc:duckdb:");
        try (Statement s = raw.createStatement()) {
            s.execute("CREATE TABLE \"car\" (_key INTEGER PRIMARY KEY, \"object\" BLOB)");
        }
        insert = raw.prepareStatement("INSERT OR IGNORE INTO \"car\" (_key, \"object\") VALUES (?, ?)");
        plainInsert = raw.prepareStatement("INSERT INTO \"car\" (_key, \"object\") VALUES (?, ?)");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        insert.close();
        plainInsert.close();
        raw.close();
        persistence.close();
        Worker.deleteRecursively(dir);
    }

    private void rawInsert() throws SQLException {
        rawInsert(insert);
    }

    private void rawInsert(PreparedStatement statement) throws SQLException {
        Car c = CarGenerator.car(nextRaw++);
        statement.setInt(1, c.getCarId());
        statement.setBytes(2, codec.serialize(c));
        statement.executeUpdate();
    }

    /** A plain INSERT (no ON CONFLICT): DuckDB 1.5.5's INSERT OR IGNORE costs several times more than this. */
    @Benchmark
    public void rawAutoCommitPlainInsert() throws SQLException {
        rawInsert(plainInsert);
    }

    @Benchmark
    public boolean quackjvmAdd() {
        return cars.add(CarGenerator.car(nextQuack++));
    }

    @Benchmark
    public void rawAutoCommit() throws SQLException {
        rawInsert();
    }

    @Benchmark
    public void rawTransaction() throws SQLException {
        raw.setAutoCommit(false);
        rawInsert();
        raw.commit();
        raw.setAutoCommit(true);
    }

    @Benchmark
    public void rawTransactionWithSelect1() throws SQLException {
        raw.setAutoCommit(false);
        try (Statement s = raw.createStatement()) {
            s.execute("SELECT 1");
        }
        rawInsert();
        raw.commit();
        raw.setAutoCommit(true);
    }
}
