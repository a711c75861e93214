package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.googlecode.cqengine.query.QueryFactory.and;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;

/**
 * Where the time of the {@code and} of three indexed conditions goes (issue #14's query: manufacturer, a price
 * range, a year; 202 of 1M cars). First the library and CQEngine's planner over a second collection of the same
 * cars with the same DuckDBIndexes, interleaved; then, on the same file after the library closed it, raw JDBC
 * statements given on the command line as name/SQL pairs, interleaved. A name starting with {@code fresh} is
 * prepared and closed on every execution, one starting with {@code tx } runs between BEGIN and COMMIT (as a statement written with literals must be); the others are prepared
 * once and kept, as the library keeps its statements. {@code -Dparams=a,b,...} binds the {@code ?}s (a long where
 * it parses, else a string), {@code -Dinit=SQL} runs first (the library's {@code disabled_optimizers}, say);
 * {@code -Dlibprops=k=v,...} are DuckDB properties of the library's database; {@code -Dsubjects=library} or
 * {@code planner} times one of the two alone. {@code $KEYS} in a statement is the list of the query's matching keys
 * as literals; as a {@code -Dparams} value it binds them as one INTEGER array. A name starting with {@code seq}
 * takes {@code KEYS-SQL|FETCH-SQL} and runs {@link #sequence} (the library's two statements, raw);
 * {@code -Dseq=KEYS-SQL|FETCH-SQL} runs that sequence in the library's rotation, on a duplicate of the library's own
 * root connection (captured through the connection-pool SPI), so the three are timed side by side.
 * Arguments: N, rounds, file (built when absent), then name SQL pairs.
 */
public final class And3Shapes {
    private And3Shapes() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Path file = Path.of(args[2]);
        Query<Car> and3 = and(equal(Car.MANUFACTURER, CarGenerator.manufacturer(7)), between(Car.PRICE, 30_000.0, 60_000.0),
                equal(Car.YEAR, 2010));
        boolean fresh = !Files.exists(file);
        List<Integer> matchKeys = new ArrayList<>();
        DuckDBDatabase.Builder builder = DuckDBDatabase.builder().file(file);
        for (String kv : System.getProperty("libprops", "").split(",")) {
            if (kv.contains("=")) {
                builder.property(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        // -Dseq=KEYS-SQL|FETCH-SQL: the library's two statements, raw, timed in the same rotation on a duplicate of
        // the library's own root connection (captured through the connection-pool SPI).
        String seq = System.getProperty("seq");
        Connection[] root = new Connection[1];
        io.quackjvm.api.spi.ConnectionInitializer[] init = new io.quackjvm.api.spi.ConnectionInitializer[1];
        if (seq != null) {
            io.quackjvm.api.spi.ConnectionPoolProvider duplicating = java.util.ServiceLoader
                    .load(io.quackjvm.api.spi.ConnectionPoolProvider.class).stream()
                    .map(java.util.ServiceLoader.Provider::get).filter(p -> p.name().equals("duplicating"))
                    .findFirst().orElseThrow();
            builder.connectionPool(new io.quackjvm.api.spi.ConnectionPoolProvider() {
                @Override public String name() { return "probe-capturing"; }
                @Override public io.quackjvm.api.spi.ConnectionPool create(Connection r, int max,
                        io.quackjvm.api.spi.ConnectionInitializer i) {
                    root[0] = r;
                    init[0] = i;
                    return duplicating.create(r, max, i);
                }
            });
        }
        try (DuckDBDatabase db = builder.build()) {
            IndexedCollection<Car> cars = db.collection(Car.CAR_ID).name("car").build();
            IndexedCollection<Car> plain = new ConcurrentIndexedCollection<>(
                    db.collection(Car.CAR_ID).name("car_plain").buildPersistence());
            for (IndexedCollection<Car> c : List.of(cars, plain)) {
                c.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
                c.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
                c.addIndex(DuckDBIndex.onAttribute(Car.YEAR));
            }
            if (fresh) {
                for (int from = 0; from < n; from += 100_000) {
                    List<Car> chunk = CarGenerator.cars(from, Math.min(100_000, n - from));
                    cars.addAll(chunk);
                    plain.addAll(chunk);
                }
                db.optimize();
            }
            Map<String, IndexedCollection<Car>> subjects = new LinkedHashMap<>();
            String only = System.getProperty("subjects", "both");
            if (!only.equals("planner")) {
                subjects.put("library (one statement, then the objects by key)", cars);
            }
            if (!only.equals("library")) {
                subjects.put("CQEngine's planner on our DuckDBIndexes", plain);
            }
            Map<String, List<Double>> lib = new LinkedHashMap<>();
            Connection raw = null;
            PreparedStatement rawKeys = null;
            if (seq != null) {
                raw = ((org.duckdb.DuckDBConnection) root[0]).duplicate();
                init[0].initialize(raw);
                rawKeys = raw.prepareStatement(seq.split("\\|")[0]);
                bindParams(raw, rawKeys, seq.split("\\|")[0], matchKeys);
            }
            // Each round runs the subjects (and the raw sequence) in a rotated order, so that none always follows
            // the planner's scans of a whole table.
            List<String> order = new ArrayList<>(subjects.keySet());
            if (raw != null) {
                order.add(0, RAW);
            }
            for (int r = 0; r < rounds + 5; r++) {
                for (int i = 0; i < order.size(); i++) {
                    String name = order.get((i + r) % order.size());
                    long t = System.nanoTime();
                    int c = 0;
                    if (name.equals(RAW)) {
                        c = (int) sequence(raw, rawKeys, seq.split("\\|")[1]);
                    } else {
                        try (ResultSet<Car> rs = subjects.get(name).retrieve(and3)) {
                            for (Car car : rs) {
                                c++;
                                if (r == 0 && subjects.get(name) == cars) {
                                    matchKeys.add(car.getCarId());
                                }
                            }
                        }
                    }
                    if (r >= 5) {
                        lib.computeIfAbsent(name, k -> new ArrayList<>()).add((System.nanoTime() - t) / 1e6);
                    }
                    if (r == 0) {
                        System.out.println(name + ": results " + c);
                    }
                }
            }
            for (var e : lib.entrySet()) {
                System.out.printf("| %s | %.2f |%n", e.getKey(), median(e.getValue()));
            }
            if (raw != null) {
                rawKeys.close();
                KEPT.values().forEach(k -> {
                    try {
                        k.close();
                    } catch (java.sql.SQLException ignored) {
                        // closing
                    }
                });
                KEPT.clear();
                raw.close();
            }
        }
        try (Connection c = connect(file)) {
            try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(
                    "SELECT table_name, estimated_size, column_count FROM duckdb_tables() ORDER BY 1")) {
                while (rs.next()) {
                    System.out.println(rs.getString(1) + " rows~" + rs.getLong(2) + " cols=" + rs.getInt(3));
                }
            }
            if (System.getProperty("init") != null) {
                try (Statement s = c.createStatement()) {
                    s.execute(System.getProperty("init"));
                }
            }
            Map<String, String> shapes = new LinkedHashMap<>();
            String literalKeys = matchKeys.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "));
            for (int i = 3; i < args.length; i += 2) {
                shapes.put(args[i], args[i + 1].replace("$KEYS", literalKeys));
            }
            Map<String, List<Double>> times = new LinkedHashMap<>();
            Map<String, PreparedStatement> ps = new LinkedHashMap<>();
            for (var e : shapes.entrySet()) {
                PreparedStatement st = c.prepareStatement(e.getValue().split("\\|")[0]);
                bindParams(c, st, e.getValue().split("\\|")[0], matchKeys);
                ps.put(e.getKey(), st);
                times.put(e.getKey(), new ArrayList<>());
            }
            for (int r = 0; r < rounds + 5; r++) {
                for (var e : ps.entrySet()) {
                    long t = System.nanoTime();
                    long rows = 0;
                    boolean inTx = e.getKey().startsWith("tx ");
                    if (inTx) {
                        try (Statement b = c.createStatement()) {
                            b.execute("BEGIN TRANSACTION");
                        }
                    }
                    if (e.getKey().startsWith("seq")) {
                        rows = sequence(c, e.getValue(), shapes.get(e.getKey()).split("\\|")[1]);
                        if (r >= 5) {
                            times.get(e.getKey()).add((System.nanoTime() - t) / 1e6);
                        }
                        if (r == 0) {
                            System.out.println(e.getKey() + " rows=" + rows);
                        }
                        continue;
                    }
                    boolean once = e.getKey().startsWith("fresh") || e.getKey().startsWith("tx fresh");
                    PreparedStatement st = once ? c.prepareStatement(shapes.get(e.getKey())) : e.getValue();
                    try (java.sql.ResultSet rs = st.executeQuery()) {
                        int cols = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            for (int k = 1; k <= cols; k++) {
                                rs.getObject(k);
                            }
                            rows++;
                        }
                    }
                    if (once) {
                        st.close();
                    }
                    if (inTx) {
                        try (Statement b = c.createStatement()) {
                            b.execute("COMMIT");
                        }
                    }
                    if (r >= 5) {
                        times.get(e.getKey()).add((System.nanoTime() - t) / 1e6);
                    }
                    if (r == 0) {
                        System.out.println(e.getKey() + " rows=" + rows);
                    }
                }
            }
            for (var e : times.entrySet()) {
                System.out.printf("| %s | %.2f |%n", e.getKey(), median(e.getValue()));
            }
        }
    }

    /**
     * The raw connection: to the file, or with {@code -Dattach=true} as the library connects (an in-memory
     * database with the file attached and used, through a duplicate of that connection); {@code -Dprops=k=v,...}
     * are DuckDB connection properties ({@code jdbc_stream_results=true}, say).
     */
    private static Connection connect(Path file) throws java.sql.SQLException {
        java.util.Properties props = new java.util.Properties();
        for (String kv : System.getProperty("props", "").split(",")) {
            if (kv.contains("=")) {
                props.setProperty(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        if (!Boolean.getBoolean("attach")) {
            return DriverManager.getConnection("jdbc:duckdb:" + file, props);
        }
        Connection root = DriverManager.getConnection("jdbc:duckdb:", props);
        try (Statement s = root.createStatement()) {
            s.execute("ATTACH '" + file + "' AS quack");
            s.execute("USE quack");
        }
        Connection dup = ((org.duckdb.DuckDBConnection) root).duplicate();
        try (Statement s = dup.createStatement()) {
            s.execute("USE quack");
        }
        return dup;
    }

    /**
     * The library's sequence, raw: in one transaction (BEGIN and COMMIT kept, as the library keeps them) the kept
     * keys statement, then a fresh statement of {@code fetch} with {@code $K} replaced by the keys read, closed
     * after use. Returns the rows fetched.
     */
    private static long sequence(Connection c, PreparedStatement keysStatement, String fetch)
            throws java.sql.SQLException {
        PreparedStatement begin = KEPT.computeIfAbsent("BEGIN TRANSACTION", sql -> prepare(c, sql));
        PreparedStatement commit = KEPT.computeIfAbsent("COMMIT", sql -> prepare(c, sql));
        begin.execute();
        StringBuilder keys = new StringBuilder();
        try (java.sql.ResultSet rs = keysStatement.executeQuery()) {
            while (rs.next()) {
                keys.append(keys.length() == 0 ? "" : ", ").append(rs.getInt(1));
            }
        }
        long rows = 0;
        try (PreparedStatement st = c.prepareStatement(fetch.replace("$K", keys));
             java.sql.ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                rs.getBytes(1);
                rs.getInt(2);
                rows++;
            }
        }
        commit.execute();
        return rows;
    }

    private static final Map<String, PreparedStatement> KEPT = new java.util.HashMap<>();

    private static final String RAW = "raw: the library's two statements, same database, same rotation";

    /** Binds {@code -Dparams} to the {@code ?}s of {@code sql}: a long where it parses, {@code $KEYS} as an array. */
    private static void bindParams(Connection c, PreparedStatement st, String sql, List<Integer> matchKeys)
            throws java.sql.SQLException {
        String[] ps0 = System.getProperty("params", "").split(",");
        int marks = (int) sql.chars().filter(ch -> ch == '?').count();
        for (int k = 0; k < marks; k++) {
            String v = ps0[k];
            if (v.equals("$KEYS")) {
                st.setArray(k + 1, c.createArrayOf("INTEGER", matchKeys.toArray()));
                continue;
            }
            try {
                st.setLong(k + 1, Long.parseLong(v));
            } catch (NumberFormatException x) {
                st.setString(k + 1, v);
            }
        }
    }

    private static PreparedStatement prepare(Connection c, String sql) {
        try {
            return c.prepareStatement(sql);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
