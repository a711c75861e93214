package io.quackjvm.bench.probes;

import io.quackjvm.bench.harness.CarCodec;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Raw DuckDB through duckdb_jdbc 1.5.6.0, nothing of ours: where a columnar row's point lookup and single
 * auto-committed INSERT spend their time against the blob layout's, and which shapes of data or statement change
 * it. Tables are shaped as quackjvm's for the benchmark {@code Car} (key, then carId, manufacturer, model, colour
 * ENUM, doors, price, features VARCHAR[], year), filled with {@code CarGenerator}'s cars.
 *
 * <p>Part {@code lookup} (a file of {@code n} rows, checkpointed): one prepared statement per shape, the shapes
 * interleaved sample by sample, every selected column read with {@code getObject}. Part {@code add} (memory and a
 * file, {@code n/10} rows preloaded): one auto-committed add per shape in rotation, each shape on its own table.
 * Medians in µs. Arguments: rows (default 1,000,000), samples (default 2,000), parts ({@code lookup,add}).
 */
public final class ColumnarRowShapes {

    private static final String ENUM = "ENUM('RED', 'GREEN', 'BLUE', 'BLACK', 'WHITE', 'SILVER', 'GREY', 'YELLOW')";
    private static final String TYPED = "_key INTEGER PRIMARY KEY, carId INTEGER, manufacturer VARCHAR, model VARCHAR, "
            + "colour " + ENUM + ", doors INTEGER, price DOUBLE, features VARCHAR[], \"year\" INTEGER";
    private static final String COLS = "carId, manufacturer, model, colour, doors, price, features, \"year\"";

    private ColumnarRowShapes() {
    }

    public static void main(String[] a) throws Exception {
        int n = a.length > 0 ? Integer.parseInt(a[0]) : 1_000_000;
        int samples = a.length > 1 ? Integer.parseInt(a[1]) : 2_000;
        String parts = a.length > 2 ? a[2] : "lookup,add";
        System.out.printf(Locale.ROOT, "ColumnarRowShapes %d %d %s; load average %s%n", n, samples, parts,
                Files.readString(Path.of("/proc/loadavg")).trim());
        if (parts.contains("lookup")) {
            lookups(n, samples);
        }
        if (parts.contains("add")) {
            adds(false, n / 10, samples);
            adds(true, n / 10, samples);
        }
        System.out.printf("load average at the end %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
    }

    private static void load(Connection c, String table, int n, CarCodec codec, int kind) throws SQLException {
        try (DuckDBAppender app = c.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, table)) {
            for (int i = 0; i < n; i++) {
                Car car = CarGenerator.car(i);
                app.beginRow();
                app.append(i);
                if (kind == 0) {
                    app.append(codec.serialize(car));
                } else {
                    appendFields(app, car);
                    if (kind == 2) {
                        app.append(codec.serialize(car));
                    }
                }
                app.endRow();
            }
        }
    }

    private static long fileSize(Path p) throws Exception {
        return Files.size(p) + (Files.exists(Path.of(p + ".wal")) ? Files.size(Path.of(p + ".wal")) : 0);
    }

    private static void lookups(int n, int samples) throws Exception {
        Path dir = Files.createTempDirectory("colrow-");
        CarCodec codec = new CarCodec();
        Map<String, Path> files = new LinkedHashMap<>();
        for (String t : new String[]{"blob", "typed", "typedrow"}) {
            files.put(t, dir.resolve(t + ".duckdb"));
        }
        // one database per table, as quackjvm would have, so the file sizes are each table's own
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            for (Map.Entry<String, Path> e : files.entrySet()) {
                s.execute("ATTACH '" + e.getValue() + "' AS " + e.getKey());
            }
            s.execute("CREATE TABLE blob.t (_key INTEGER PRIMARY KEY, object BLOB USING COMPRESSION uncompressed)");
            s.execute("CREATE TABLE typed.t (" + TYPED + ")");
            s.execute("CREATE TABLE typedrow.t (" + TYPED + ", _row BLOB USING COMPRESSION uncompressed)");
            int kind = 0;
            for (String t : files.keySet()) {
                s.execute("USE " + t);
                long t0 = System.nanoTime();
                load(c, "t", n, codec, kind++);
                s.execute("CHECKPOINT " + t);
                System.out.printf(Locale.ROOT, "loaded %-9s %,d rows in %,d ms%n", t, n, (System.nanoTime() - t0) / 1_000_000);
            }
            s.execute("USE memory");
            for (Map.Entry<String, Path> e : files.entrySet()) {
                s.execute("DETACH " + e.getKey());
                System.out.printf(Locale.ROOT, "file %-9s %.1f MB%n", e.getKey(), fileSize(e.getValue()) / 1e6);
                s.execute("ATTACH '" + e.getValue() + "' AS " + e.getKey());
            }
            String[][] shapes = {
                    {"blob: SELECT object", "SELECT object FROM blob.t WHERE _key = ?"},
                    {"typed: SELECT the 8 columns", "SELECT " + COLS + " FROM typed.t WHERE _key = ?"},
                    {"typed+row: SELECT _row (row copy alone)", "SELECT _row FROM typedrow.t WHERE _key = ?"},
                    {"typed+row: SELECT the 8 columns", "SELECT " + COLS + " FROM typedrow.t WHERE _key = ?"},
                    {"typed: SELECT hash(8 columns) (all read, one value out)", "SELECT hash(" + COLS + ") FROM typed.t WHERE _key = ?"},
                    {"typed: SELECT the 7 scalar columns", "SELECT carId, manufacturer, model, colour, doors, price, \"year\" FROM typed.t WHERE _key = ?"},
                    {"typed: SELECT features", "SELECT features FROM typed.t WHERE _key = ?"},
                    {"typed: SELECT carId", "SELECT carId FROM typed.t WHERE _key = ?"},
                    {"typed: SELECT 8 columns, rs.next() only", "SELECT " + COLS + " FROM typed.t WHERE _key = ?"},
                    {"typed: 8 columns as one VARCHAR (concat_ws)", "SELECT concat_ws(chr(31), carId, manufacturer, model, colour, doors, price, array_to_string(features, chr(30)), \"year\") FROM typed.t WHERE _key = ?"},
            };
            interleave(c, shapes, n, samples);
        } finally {
            for (Path p : files.values()) {
                Files.deleteIfExists(p);
                Files.deleteIfExists(Path.of(p + ".wal"));
            }
            Files.deleteIfExists(dir);
        }
    }

    private static void interleave(Connection c, String[][] shapes, int n, int samples) throws SQLException {
        PreparedStatement[] ps = new PreparedStatement[shapes.length];
        for (int i = 0; i < shapes.length; i++) {
            ps[i] = c.prepareStatement(shapes[i][1]);
        }
        long[][] t = new long[shapes.length][samples];
        Random r = new Random(1);
        for (int k = -300; k < samples; k++) {
            for (int j = 0; j < shapes.length; j++) {
                int i = Math.floorMod(k + j, shapes.length);
                int key = r.nextInt(n);
                long t0 = System.nanoTime();
                ps[i].setInt(1, key);
                try (ResultSet rs = ps[i].executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("no row " + key);
                    }
                    if (!shapes[i][0].contains("next() only")) {
                        int m = rs.getMetaData().getColumnCount();
                        for (int col = 1; col <= m; col++) {
                            rs.getObject(col);
                        }
                    }
                }
                if (k >= 0) {
                    t[i][k] = System.nanoTime() - t0;
                }
            }
        }
        System.out.printf("%n| lookup shape (file, %,d rows, %,d samples) | p50 µs | ÷ blob |%n|---|--:|--:|%n", n, samples);
        double blob = median(t[0]);
        for (int i = 0; i < shapes.length; i++) {
            double m = median(t[i]);
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.2f× |%n", shapes[i][0], m, m / blob);
            ps[i].close();
        }
    }

    private static double median(long[] t) {
        long[] x = t.clone();
        Arrays.sort(x);
        return x[x.length / 2] / 1e3;
    }

    private interface Add {
        void add(Car car, int key) throws Exception;
    }

    private static void adds(boolean file, int n, int samples) throws Exception {
        Path dir = Files.createTempDirectory("colrow-add-");
        CarCodec codec = new CarCodec();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            if (file) {
                s.execute("ATTACH '" + dir.resolve("add.duckdb") + "' AS f (ROW_GROUP_SIZE 16384)");
                s.execute("USE f");
            }
            Map<String, Add> shapes = new LinkedHashMap<>();
            int[] table = {0};
            java.util.function.Function<String, String> create = ddl -> {
                String name = "t" + table[0]++;
                try {
                    s.execute("CREATE TABLE " + name + " (" + ddl + ")");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                return name;
            };
            String blob = create.apply("_key INTEGER PRIMARY KEY, object BLOB USING COMPRESSION uncompressed");
            load(c, blob, n, codec, 0);
            PreparedStatement pBlob = c.prepareStatement("INSERT INTO " + blob + " VALUES (?, ?)");
            shapes.put("blob: INSERT (key, BLOB)", (car, k) -> {
                pBlob.setInt(1, k);
                pBlob.setBytes(2, codec.serialize(car));
                pBlob.executeUpdate();
            });
            String[] typedTables = new String[6];
            for (int i = 0; i < typedTables.length; i++) {
                typedTables[i] = create.apply(TYPED);
                load(c, typedTables[i], n, codec, 1);
            }
            String ins = " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
            PreparedStatement[] pT = new PreparedStatement[typedTables.length];
            for (int i = 0; i < pT.length; i++) {
                pT[i] = c.prepareStatement("INSERT INTO " + typedTables[i] + ins);
            }
            shapes.put("typed: INSERT 8 columns, LIST via createArrayOf", (car, k) -> typed(c, pT[0], car, k, 0, true));
            shapes.put("typed: INSERT 8 columns, LIST bound NULL", (car, k) -> typed(c, pT[1], car, k, 1, true));
            shapes.put("typed: INSERT 8 columns, LIST empty (createArrayOf of none)", (car, k) -> typed(c, pT[2], car, k, 2, true));
            PreparedStatement pSplit = c.prepareStatement("INSERT INTO " + typedTables[3]
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, string_split(?, chr(31)), ?)");
            shapes.put("typed: INSERT 8 columns, LIST as string_split(VARCHAR ?)", (car, k) -> typed(c, pSplit, car, k, 3, true));
            PreparedStatement pCast = c.prepareStatement("INSERT INTO " + typedTables[3]
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?::VARCHAR[], ?)");
            shapes.put("typed: INSERT 8 columns, LIST as ?::VARCHAR[] (typed parameter)", (car, k) -> typed(c, pCast, car, k + 60_000_000, 0, true));
            String seven = create.apply(TYPED.replace(", features VARCHAR[]", ""));
            PreparedStatement p7 = c.prepareStatement("INSERT INTO " + seven + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
            shapes.put("typed: INSERT 7 scalar columns (no LIST column)", (car, k) -> typed(c, p7, car, k, 4, true));
            String side = create.apply("_key INTEGER, value VARCHAR");
            shapes.put("typed 7 + side table (key, value): BEGIN, 2 INSERTs, COMMIT", (car, k) -> {
                s.execute("BEGIN TRANSACTION");
                typed(c, p7, car, k + 50_000_000, 4, true);
                StringBuilder sql = new StringBuilder("INSERT INTO " + side + " VALUES ");
                List<String> f = car.getFeatures();
                for (int i = 0; i < f.size(); i++) {
                    sql.append(i == 0 ? "" : ", ").append("(?, ?)");
                }
                if (!f.isEmpty()) {
                    try (PreparedStatement p = c.prepareStatement(sql.toString())) {
                        for (int i = 0; i < f.size(); i++) {
                            p.setInt(2 * i + 1, k);
                            p.setString(2 * i + 2, f.get(i));
                        }
                        p.executeUpdate();
                    }
                }
                s.execute("COMMIT");
            });
            String row = create.apply(TYPED + ", _row BLOB USING COMPRESSION uncompressed");
            PreparedStatement pRow = c.prepareStatement("INSERT INTO " + row + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            shapes.put("typed + row copy BLOB: INSERT 9 columns", (car, k) -> {
                typed(c, pRow, car, k, 0, false);
                pRow.setBytes(10, codec.serialize(car));
                pRow.executeUpdate();
            });
            shapes.put("typed: Appender, one row (create, append, close)", (car, k) -> {
                try (DuckDBAppender app = c.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, typedTables[4])) {
                    app.beginRow();
                    app.append(k);
                    appendFields(app, car);
                    app.endRow();
                }
            });
            PreparedStatement pNulls = c.prepareStatement("INSERT INTO " + typedTables[5] + ins);
            shapes.put("typed: INSERT 8 columns, all but the key bound NULL", (car, k) -> {
                pNulls.setInt(1, k);
                for (int i = 2; i <= 9; i++) {
                    pNulls.setNull(i, java.sql.Types.NULL);
                }
                pNulls.executeUpdate();
            });
            PreparedStatement pKeyOnly = c.prepareStatement("INSERT INTO " + typedTables[5] + " (_key) VALUES (?)");
            shapes.put("typed: INSERT the key alone (8 columns left NULL by default)", (car, k) -> {
                pKeyOnly.setInt(1, k + 50_000_000);
                pKeyOnly.executeUpdate();
            });
            String kept = create.apply(TYPED);
            DuckDBAppender keptApp = c.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, kept);
            shapes.put("typed: one Appender kept open, flush after each row", (car, k) -> {
                keptApp.beginRow();
                keptApp.append(k);
                appendFields(keptApp, car);
                keptApp.endRow();
                keptApp.flush();
            });
            String blobKept = create.apply("_key INTEGER PRIMARY KEY, object BLOB USING COMPRESSION uncompressed");
            DuckDBAppender blobApp = c.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, blobKept);
            shapes.put("blob: one Appender kept open, flush after each row", (car, k) -> {
                blobApp.beginRow();
                blobApp.append(k);
                blobApp.append(codec.serialize(car));
                blobApp.endRow();
                blobApp.flush();
            });
            // one column of each type alone, to see which bind costs
            for (String[] one : new String[][]{{"INTEGER", "i"}, {"VARCHAR", "s"}, {ENUM, "e"}, {"DOUBLE", "d"},
                    {"VARCHAR[]", "l"}}) {
                String t = create.apply("_key INTEGER PRIMARY KEY, v " + one[0]);
                PreparedStatement p = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?)");
                String label = one[0].startsWith("ENUM") ? "ENUM" : one[0];
                shapes.put("(key, " + label + "): INSERT", (car, k) -> {
                    p.setInt(1, k);
                    switch (one[1]) {
                        case "i" -> p.setInt(2, car.getYear());
                        case "s" -> p.setString(2, car.getModel());
                        case "e" -> p.setString(2, car.getColour().name());
                        case "d" -> p.setDouble(2, car.getPrice());
                        default -> p.setObject(2, c.createArrayOf("VARCHAR", car.getFeatures().toArray()));
                    }
                    p.executeUpdate();
                });
            }
            shapes.put("createArrayOf alone (no statement)", (car, k) -> c.createArrayOf("VARCHAR", car.getFeatures().toArray()));
            List<String> names = new ArrayList<>(shapes.keySet());
            List<Add> adds = new ArrayList<>(shapes.values());
            long[][] t = new long[names.size()][samples];
            int warm = Math.min(100, samples / 5);
            for (int i = 0; i < warm + samples; i++) {
                Car car = CarGenerator.car(n + i);
                for (int j = 0; j < adds.size(); j++) {
                    int sIdx = (i + j) % adds.size();
                    long t0 = System.nanoTime();
                    adds.get(sIdx).add(car, n + i);
                    long d = System.nanoTime() - t0;
                    if (i >= warm) {
                        t[sIdx][i - warm] = d;
                    }
                }
            }
            System.out.printf("%n| add shape (%s, %,d rows preloaded, %,d samples) | p50 µs | ÷ blob |%n|---|--:|--:|%n",
                    file ? "file" : "memory", n, samples);
            double b = median(t[0]);
            for (int i = 0; i < names.size(); i++) {
                double m = median(t[i]);
                System.out.printf(Locale.ROOT, "| %s | %.0f | %.2f× |%n", names.get(i), m, m / b);
            }
        } finally {
            Files.deleteIfExists(dir.resolve("add.duckdb"));
            Files.deleteIfExists(dir.resolve("add.duckdb.wal"));
            Files.deleteIfExists(dir);
        }
    }

    /** Binds the 8 typed columns; {@code list}: 0 createArrayOf, 1 NULL, 2 empty, 3 one VARCHAR, 4 no LIST column. */
    /** The eight typed fields of a car, in the table's column order, into the Appender's current row. */
    private static void appendFields(DuckDBAppender app, Car car) throws SQLException {
        app.append(car.getCarId());
        app.append(car.getManufacturer());
        app.append(car.getModel());
        app.append(car.getColour().name());
        app.append(car.getDoors());
        app.append(car.getPrice());
        app.append(car.getFeatures());
        app.append(car.getYear());
    }

    private static void typed(Connection c, PreparedStatement p, Car car, int k, int list, boolean execute) throws SQLException {
        int i = 1;
        p.setInt(i++, k);
        p.setInt(i++, car.getCarId());
        p.setString(i++, car.getManufacturer());
        p.setString(i++, car.getModel());
        p.setString(i++, car.getColour().name());
        p.setInt(i++, car.getDoors());
        p.setDouble(i++, car.getPrice());
        switch (list) {
            case 0 -> p.setObject(i++, c.createArrayOf("VARCHAR", car.getFeatures().toArray()));
            case 1 -> p.setNull(i++, java.sql.Types.NULL);
            case 2 -> p.setObject(i++, c.createArrayOf("VARCHAR", new Object[0]));
            case 3 -> p.setString(i++, String.join("\u001f", car.getFeatures()));
            default -> {
            }
        }
        p.setInt(i, car.getYear());
        if (execute) {
            p.executeUpdate();
        }
    }
}
