package io.quackjvm.bench.probes;

import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBBulkWriter;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.bench.harness.Worker;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;

import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What an export to Parquet and an import back cost, for N benchmark cars in each layout (blob: primary key plus a
 * {@code DuckDBIndex} on manufacturer and price, exported with its objects; columnar: the typed fields), round by
 * round in this JVM:
 * <ul>
 *   <li>{@code export}: {@code database.export(cars).toParquet(dir)};</li>
 *   <li>{@code raw COPY}: DuckDB's own {@code COPY plain TO ... (FORMAT PARQUET)} of a plain table holding the same
 *       rows (made from the export's files, in a DuckDB of its own), the floor of writing those rows;</li>
 *   <li>{@code iterate to a file}: what a user does without the feature: iterate the collection through CQEngine
 *       and write each object's fields as a line of text;</li>
 *   <li>{@code import}: a bulk writer's {@code addParquet} of the export into an empty collection, against
 *       {@code bulk writer}: the same objects given to {@code addAll}.</li>
 * </ul>
 * For the blob layout, two more rows time DuckDB alone on the two shapes the same rows can have in a database file
 * (tables made once from the export's files, checkpointed): one wide table holding each object beside its indexed
 * values, and an object table beside one two-column table per indexed attribute (ordered by value, as index tables
 * are), joined on the key as the export joins them. Their ratio is what the storage shape alone costs an export.
 * Targets: export ÷ raw COPY ≤ 1.2, import ÷ bulk writer ≤ 1.2 (medians).
 *
 * <p>Arguments: N (default 1,000,000), rounds (default 5), {@code --out FILE} (default
 * {@code results/raw/parquet/run.md}).
 */
public final class ParquetProbe {

    private ParquetProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeReport.Args parsed = ProbeReport.Args.parse(args, "results/raw/parquet/run.md");
        String[] pos = parsed.positional();
        int n = ProbeReport.intArg(pos, 0, 1_000_000);
        int rounds = ProbeReport.intArg(pos, 1, 5);
        long t0 = System.nanoTime();
        StringBuilder md = ProbeReport.stamped(ParquetProbe.class, n, rounds);
        Path work = Files.createTempDirectory("parquet-probe");
        List<Car> cars = CarGenerator.cars(0, n);
        for (boolean columnar : new boolean[]{false, true}) {
            measure(md, work, cars, columnar, rounds);
        }
        ProbeReport.delete(work);
        ProbeReport.finish(md, t0, parsed.out());
        System.exit(0);
    }

    private static IndexedCollection<Car> collection(DuckDBDatabase db, String name, boolean columnar) {
        var builder = db.collection(Car.CAR_ID).name(name);
        if (columnar) {
            return builder.columnarLayout(ColumnarLayout.reflective(Car.class)).build();
        }
        IndexedCollection<Car> c = builder.build();
        c.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
        c.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
        return c;
    }

    private static void measure(StringBuilder md, Path work, List<Car> all, boolean columnar, int rounds)
            throws Exception {
        List<Long> exports = new ArrayList<>();
        List<Long> raws = new ArrayList<>();
        List<Long> iterations = new ArrayList<>();
        List<Long> imports = new ArrayList<>();
        List<Long> bulks = new ArrayList<>();
        List<Long> wides = new ArrayList<>();
        List<Long> joins = new ArrayList<>();
        long rows = 0;
        long bytes = 0;
        Connection shapes = null;
        try (DuckDBDatabase db = DuckDBDatabase.builder().file(work.resolve("cars-" + columnar + ".duckdb"))
                .memoryLimit("2GB").build()) {
            IndexedCollection<Car> cars = collection(db, "car", columnar);
            try (DuckDBBulkWriter<Car> w = db.bulkWriter(cars)) {
                w.addAll(all);
                w.commit();
            }
            db.optimize();
            for (int r = 0; r <= rounds; r++) {          // round 0 warms up and is not reported
                Path out = work.resolve("export-" + r);
                long s = System.nanoTime();
                var summary = db.export(cars).includeObjects(!columnar).toParquet(out);
                long exportMs = (System.nanoTime() - s) / 1_000_000;
                rows = summary.rows();
                bytes = summary.bytes();

                long rawMs;
                try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE plain AS SELECT * FROM read_parquet('" + out.resolve("*.parquet") + "')");
                    s = System.nanoTime();
                    st.execute("COPY plain TO '" + work.resolve("raw-" + r + ".parquet") + "' (FORMAT PARQUET)");
                    rawMs = (System.nanoTime() - s) / 1_000_000;
                }
                Files.delete(work.resolve("raw-" + r + ".parquet"));
                if (!columnar) {
                    if (shapes == null) {
                        shapes = shapes(out, work.resolve("shapes.duckdb"));
                    }
                    long[] shapeMs = copyShapes(shapes, work.resolve("shape-" + r + ".parquet"));
                    if (r > 0) {
                        wides.add(shapeMs[0]);
                        joins.add(shapeMs[1]);
                    }
                }

                s = System.nanoTime();
                try (BufferedWriter w = Files.newBufferedWriter(work.resolve("iterated.txt"))) {
                    for (Car car : cars) {
                        w.write(car.toString());
                        w.newLine();
                    }
                }
                long iterateMs = (System.nanoTime() - s) / 1_000_000;
                Files.delete(work.resolve("iterated.txt"));

                long importMs;
                long bulkMs;
                try (DuckDBDatabase other = DuckDBDatabase.builder().inMemory().memoryLimit("2GB").build()) {
                    IndexedCollection<Car> a = collection(other, "a", columnar);
                    s = System.nanoTime();
                    try (DuckDBBulkWriter<Car> w = other.bulkWriter(a)) {
                        w.addParquet(out);
                        w.commit();
                    }
                    importMs = (System.nanoTime() - s) / 1_000_000;
                    IndexedCollection<Car> b = collection(other, "b", columnar);
                    s = System.nanoTime();
                    try (DuckDBBulkWriter<Car> w = other.bulkWriter(b)) {
                        w.addAll(all);
                        w.commit();
                    }
                    bulkMs = (System.nanoTime() - s) / 1_000_000;
                    if (a.size() != all.size() || b.size() != all.size()) {
                        throw new IllegalStateException("import stored " + a.size() + " of " + all.size());
                    }
                }
                ProbeReport.delete(out);
                System.err.printf(Locale.ROOT, "%s round %d: export %,d ms, raw COPY %,d ms, iterate %,d ms, "
                                + "import %,d ms, bulk %,d ms (load avg %s)%n", columnar ? "columnar" : "blob", r,
                        exportMs, rawMs, iterateMs, importMs, bulkMs, Worker.loadAverage());
                if (r > 0) {
                    exports.add(exportMs);
                    raws.add(rawMs);
                    iterations.add(iterateMs);
                    imports.add(importMs);
                    bulks.add(bulkMs);
                }
            }
        } finally {
            if (shapes != null) {
                shapes.close();
            }
        }
        md.append(String.format(Locale.ROOT, "## %s layout%n%nExport: %,d rows, %,d bytes of Parquet.%n%n",
                columnar ? "columnar" : "blob (with _object)", rows, bytes));
        md.append("| measure | median ms | rounds ms |\n|---|--:|---|\n");
        ProbeReport.row(md, "export (database.export().toParquet)", exports);
        ProbeReport.row(md, "raw DuckDB COPY of a plain table of the same rows", raws);
        ProbeReport.row(md, "iterate through CQEngine into a text file", iterations);
        ProbeReport.row(md, "import (bulkWriter.addParquet)", imports);
        ProbeReport.row(md, "bulk writer addAll of the same objects", bulks);
        if (!columnar) {
            ProbeReport.row(md, "DuckDB alone: COPY of one wide table in a file (object beside its values)", wides);
            ProbeReport.row(md, "DuckDB alone: COPY of the object table joined to one table per index", joins);
        }
        double exportRatio = (double) ProbeReport.median(exports) / Math.max(1, ProbeReport.median(raws));
        double importRatio = (double) ProbeReport.median(imports) / Math.max(1, ProbeReport.median(bulks));
        double iterateRatio = (double) ProbeReport.median(exports) / Math.max(1, ProbeReport.median(iterations));
        md.append(String.format(Locale.ROOT, "%nexport ÷ raw COPY = %.2f (target ≤ 1.2: %s); export ÷ iterating "
                        + "into a file = %.2f; import ÷ bulk writer = %.2f (target ≤ 1.2: %s)%n%n", exportRatio,
                exportRatio <= 1.2 ? "met" : "not met", iterateRatio, importRatio,
                importRatio <= 1.2 ? "met" : "not met"));
        if (!columnar) {
            md.append(String.format(Locale.ROOT, "DuckDB alone, the joined shape ÷ the wide shape = %.2f; the wide "
                            + "shape ÷ raw COPY = %.2f%n%n",
                    (double) ProbeReport.median(joins) / Math.max(1, ProbeReport.median(wides)),
                    (double) ProbeReport.median(wides) / Math.max(1, ProbeReport.median(raws))));
        }
    }

    /** A database file holding the export's rows in both shapes: one wide table, and objects beside index tables. */
    private static Connection shapes(Path exported, Path file) throws Exception {
        String files = "read_parquet('" + exported.resolve("*.parquet") + "')";
        String key = "\"" + Car.CAR_ID.getAttributeName() + "\"";
        String manufacturer = "\"" + Car.MANUFACTURER.getAttributeName() + "\"";
        String price = "\"" + Car.PRICE.getAttributeName() + "\"";
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE wide AS SELECT * FROM " + files);
            st.execute("CREATE TABLE objects AS SELECT " + key + " AS _key, _object FROM " + files);
            st.execute("CREATE TABLE by_manufacturer AS SELECT " + key + " AS _key, " + manufacturer
                    + " AS value FROM " + files + " ORDER BY value");
            st.execute("CREATE TABLE by_price AS SELECT " + key + " AS _key, " + price + " AS value FROM " + files
                    + " ORDER BY value");
            st.execute("CHECKPOINT");
        }
        return c;
    }

    /** Milliseconds to COPY the wide table, then the joined tables, to {@code target}. */
    private static long[] copyShapes(Connection c, Path target) throws Exception {
        String key = "\"" + Car.CAR_ID.getAttributeName() + "\"";
        String joined = "SELECT o._key AS " + key + ", m.value AS \"" + Car.MANUFACTURER.getAttributeName()
                + "\", p.value AS \"" + Car.PRICE.getAttributeName() + "\", o._object FROM objects o "
                + "LEFT JOIN by_manufacturer m ON m._key = o._key LEFT JOIN by_price p ON p._key = o._key";
        long[] ms = new long[2];
        try (Statement st = c.createStatement()) {
            String[] selects = {"SELECT * FROM wide", joined};
            for (int i = 0; i < 2; i++) {
                long s = System.nanoTime();
                st.execute("COPY (" + selects[i] + ") TO '" + target + "' (FORMAT PARQUET)");
                ms[i] = (System.nanoTime() - s) / 1_000_000;
                Files.delete(target);
            }
        }
        return ms;
    }
}
