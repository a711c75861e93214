package io.quackjvm.bench.harness;

import io.quackjvm.bench.model.Car;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The floor: DuckDB through its JDBC driver with nothing of ours in between. Same table shape as quackjvm's BLOB
 * layout ({@code car(_key INTEGER PRIMARY KEY, object BLOB)}, stored the way quackjvm stores a file), same Kryo 5 settings and one-byte header, and for
 * point lookups exactly the SQL quackjvm issues, {@code SELECT "object" FROM "car" WHERE _key = ?}, on one reused
 * prepared statement with auto-commit on. Whatever quackjvm takes beyond this is our overhead.
 */
public final class RawJdbcSubject implements Subject {

    static final String LOOKUP_SQL = "SELECT \"object\" FROM \"car\" WHERE _key = ?";

    private final Path dir;
    private final Connection connection;
    private final PreparedStatement lookup;
    private final PreparedStatement insert;
    private final CarCodec codec = new CarCodec();

    public RawJdbcSubject(Path dir, String memoryLimit) throws SQLException {
        this.dir = dir;
        this.connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = connection.createStatement()) {
            if (memoryLimit != null) {
                s.execute("SET memory_limit = '" + memoryLimit + "'");
            }
            if (dir != null) {
                // The file as quackjvm stores one: attached with 16,384-row row groups, the blob uncompressed.
                s.execute("ATTACH '" + dir.resolve("raw.duckdb") + "' AS raw (ROW_GROUP_SIZE 16384)");
                s.execute("USE raw");
            }
            s.execute("CREATE TABLE \"car\" (_key INTEGER PRIMARY KEY, \"object\" BLOB USING COMPRESSION uncompressed)");
        }
        this.lookup = connection.prepareStatement(LOOKUP_SQL);
        this.insert = connection.prepareStatement("INSERT INTO \"car\" (_key, \"object\") VALUES (?, ?)");
    }

    @Override
    public void load(List<Car> cars) {
        addAll(cars);
    }

    @Override
    public void addAll(List<Car> cars) {
        try (DuckDBAppender appender = connection.unwrap(DuckDBConnection.class)
                .createAppender(DuckDBConnection.DEFAULT_SCHEMA, "car")) {
            for (Car car : cars) {
                appender.beginRow();
                appender.append(car.getCarId());
                appender.append(codec.serialize(car));
                appender.endRow();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public byte[] lookupBytes(int carId) {
        try {
            lookup.setInt(1, carId);
            try (ResultSet rs = lookup.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Car lookup(int carId) {
        byte[] bytes = lookupBytes(carId);
        return bytes == null ? null : codec.deserialize(bytes);
    }

    @Override
    public int queryEqual(String manufacturer) {
        throw new NotApplicable("the BLOB table has no queryable attribute columns");
    }

    @Override
    public int count(String manufacturer) {
        throw new NotApplicable("the BLOB table has no queryable attribute columns");
    }

    @Override
    public int range(double low, double high) {
        throw new NotApplicable("the BLOB table has no queryable attribute columns");
    }

    @Override
    public long iterateAll() {
        long n = 0;
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"object\" FROM \"car\"")) {
            while (rs.next()) {
                if (codec.deserialize(rs.getBytes(1)) != null) {
                    n++;
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return n;
    }

    @Override
    public void add(Car car) {
        try {
            insert.setInt(1, car.getCarId());
            insert.setBytes(2, codec.serialize(car));
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String queryMode() {
        return null;
    }

    @Override
    public long bytesOnDisk() {
        return dir == null ? -1 : CollectionSubject.sizeOf(dir);
    }

    @Override
    public String describe() {
        return "SQL: " + LOOKUP_SQL;
    }

    @Override
    public void close() throws Exception {
        lookup.close();
        insert.close();
        connection.close();
    }
}
