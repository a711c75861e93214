package io.quackjvm.it.columnar;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.ResultReaderProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.greaterThan;
import static com.googlecode.cqengine.query.QueryFactory.greaterThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static com.googlecode.cqengine.query.QueryFactory.lessThan;
import static com.googlecode.cqengine.query.QueryFactory.lessThanOrEqualTo;
import static com.googlecode.cqengine.query.QueryFactory.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sign of zero in FLOAT and DOUBLE values of the columnar layout, top-level and inside LISTs and STRUCTs. Java's
 * {@code equals} tells {@code 0.0} from {@code -0.0}, so a read must give back the very value written. DuckDB's own
 * columns do not keep the sign through a checkpoint: a column segment whose values are all zeros of either sign is
 * stored as one constant, and RLE merges runs of both. The layout stores every zero as {@code 0.0} and records the
 * negative ones in a hidden column of the row; every reader, the SQL views and the conditions pushed down to SQL
 * take the sign from there. Every check compares against what an on-heap CQEngine collection holds and answers.
 */
class SignedZeroTest {

    /** A STRUCT with floating fields. */
    public record Point(double x, Float y) {
    }

    /**
     * {@code d} and {@code f} hold only zeros (a column segment of zeros of both signs is what a checkpoint folds);
     * {@code e} mixes zeros with other values, for ranges.
     */
    public record Z(int id, double d, float f, double e, double g, Double boxed, List<Double> ds, Point pt,
                    List<Point> pts) {
        static final SimpleAttribute<Z, Integer> ID = new SimpleAttribute<>(Z.class, Integer.class, "id") {
            @Override public Integer getValue(Z o, QueryOptions q) { return o.id; }
        };
        static final SimpleAttribute<Z, Double> D = new SimpleAttribute<>(Z.class, Double.class, "d") {
            @Override public Double getValue(Z o, QueryOptions q) { return o.d; }
        };
        static final SimpleAttribute<Z, Float> F = new SimpleAttribute<>(Z.class, Float.class, "f") {
            @Override public Float getValue(Z o, QueryOptions q) { return o.f; }
        };
        static final SimpleAttribute<Z, Double> E = new SimpleAttribute<>(Z.class, Double.class, "e") {
            @Override public Double getValue(Z o, QueryOptions q) { return o.e; }
        };
        /** Without an index: aggregates read its column. */
        static final SimpleAttribute<Z, Double> G = new SimpleAttribute<>(Z.class, Double.class, "g") {
            @Override public Double getValue(Z o, QueryOptions q) { return o.g; }
        };
    }

    private static final double[] E_VALUES = {-0.0, 0.0, -1.5, 2.25, Double.NaN, -0.0, Double.NEGATIVE_INFINITY, 0.0,
            7.0};

    private static Z item(int i) {
        double z = i % 2 == 0 ? 0.0 : -0.0;
        Double boxed = switch (i % 4) {
            case 0 -> null;
            case 1 -> -0.0;
            case 2 -> 0.0;
            default -> 3.5;
        };
        Point pt = i % 7 == 6 ? null : new Point(i % 3 == 0 ? -0.0 : 0.0, i % 5 == 0 ? null : i % 2 == 0 ? -0.0f : 0.0f);
        List<Point> pts = List.of(new Point(-0.0, 1.0f), new Point(i, i % 3 == 1 ? -0.0f : 0.0f));
        double g = i % 3 == 0 ? -0.0 : i % 3 == 1 ? 0.0 : 1.0;
        return new Z(i, z, i % 3 == 0 ? -0.0f : 0.0f, E_VALUES[i % E_VALUES.length], g, boxed,
                Arrays.asList(1.5, i % 2 == 0 ? -0.0 : 0.0, -0.0, null), pt, pts);
    }

    private static List<Z> items(int from, int to) {
        List<Z> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(item(i));
        }
        return out;
    }

    @TempDir
    Path dir;

    /**
     * Each reader set (the row-by-row JDBC reader alone; with the Arrow reader), written one at a time or in bulk,
     * without and with a row copy (lookups then read the copy; scans, SQL and conditions still the typed columns).
     */
    static Stream<Arguments> readersWritesCopies() {
        return ColumnarRoundTripTest.readers().flatMap(r -> Stream.of(true, false)
                .flatMap(one -> Stream.of(Arguments.of(r, one, false), Arguments.of(r, one, true))));
    }

    private static DuckDBDatabase open(Path file, List<ResultReaderProvider> readers) {
        return DuckDBDatabase.builder().file(file).resultReaders(readers.toArray(new ResultReaderProvider[0])).build();
    }

    private static IndexedCollection<Z> collection(DuckDBDatabase db, boolean rowCopy) {
        ColumnarLayout<Z> layout = ColumnarLayout.ofRecord(Z.class);
        IndexedCollection<Z> c = db.collection(Z.ID).name("z")
                .columnarLayout(rowCopy ? layout.withRowCopy() : layout).build();
        c.addIndex(DuckDBIndex.onAttribute(Z.D));
        c.addIndex(DuckDBIndex.onAttribute(Z.F));
        c.addIndex(DuckDBIndex.onAttribute(Z.E));
        return c;
    }

    private static <O> List<O> read(IndexedCollection<O> c, Query<O> q, Comparator<O> order) {
        List<O> out = new ArrayList<>();
        try (ResultSet<O> rs = c.retrieve(q)) {
            rs.forEach(out::add);
        }
        out.sort(order);
        return out;
    }

    private static List<Z> read(IndexedCollection<Z> c, Query<Z> q) {
        return read(c, q, Comparator.comparingInt(Z::id));
    }

    /** The queries whose answers depend on the sign of a zero, each answered by the heap and compared. */
    private static List<Query<Z>> zeroQueries() {
        List<Query<Z>> out = new ArrayList<>();
        for (SimpleAttribute<Z, Double> a : List.of(Z.D, Z.E)) {
            for (double zero : new double[] {-0.0, 0.0}) {
                out.add(equal(a, zero));
                out.add(not(equal(a, zero)));
                out.add(greaterThan(a, zero));
                out.add(greaterThanOrEqualTo(a, zero));
                out.add(lessThan(a, zero));
                out.add(lessThanOrEqualTo(a, zero));
            }
            out.add(between(a, -0.0, true, 0.0, false));
            out.add(between(a, -0.0, false, 0.0, true));
            out.add(between(a, -1.5, true, -0.0, true));
            out.add(in(a, -0.0, 2.25));
            out.add(in(a, 0.0, Double.NaN));
        }
        for (float zero : new float[] {-0.0f, 0.0f}) {
            out.add(equal(Z.F, zero));
            out.add(lessThan(Z.F, zero));
            out.add(greaterThanOrEqualTo(Z.F, zero));
        }
        return out;
    }

    /** Reads, queries, aggregates and the SQL view of {@code c} against the same objects on the heap. */
    private static void check(DuckDBDatabase db, IndexedCollection<Z> c, List<Z> expected, String when) {
        IndexedCollection<Z> heap = new ConcurrentIndexedCollection<>();
        heap.addAll(expected);
        assertEquals(expected, read(c, all(Z.class)), when + ": bulk read");
        for (Z z : expected) {
            assertEquals(List.of(z), read(c, equal(Z.ID, z.id())), when + ": point read of " + z.id());
        }
        for (Query<Z> q : zeroQueries()) {
            assertEquals(read(heap, q), read(c, q), when + ": " + q);
        }
        // Conditions and aggregates run in SQL on the object table's columns (the DuckDBIndex on each attribute
        // lets where() accept it): the sign comes from the record of negative zeros.
        for (Query<Z> q : zeroQueries()) {
            assertEquals(heap.retrieve(q).size(), db.from(c).where(q).count(), when + ": where(" + q + ").count()");
        }
        for (double zero : new double[] {-0.0, 0.0}) {
            Optional<Double> min = heap.stream().map(Z::e).filter(x -> Double.compare(x, zero) >= 0)
                    .min(Double::compare);
            assertEquals(min, db.from(c).where(greaterThanOrEqualTo(Z.E, zero)).min(Z.E),
                    when + ": min of e >= " + zero);
            Optional<Double> max = heap.stream().map(Z::e).filter(x -> Double.compare(x, zero) <= 0)
                    .max(Double::compare);
            assertEquals(max, db.from(c).where(lessThanOrEqualTo(Z.E, zero)).max(Z.E),
                    when + ": max of e <= " + zero);
        }
        assertEquals(heap.stream().map(Z::d).min(Double::compare), db.from(c).min(Z.D), when + ": min of d");
        assertEquals(heap.stream().map(Z::d).max(Double::compare), db.from(c).max(Z.D), when + ": max of d");
        assertEquals(heap.stream().map(Z::d).distinct().count(), db.from(c).countDistinct(Z.D),
                when + ": distinct d");
        // Aggregates over a column without an index: DuckDB's own min, max and distinct would equate the zeros.
        for (Query<Z> q : List.<Query<Z>>of(all(Z.class), in(Z.ID, 0, 1, 3), in(Z.ID, 0, 3, 6), in(Z.ID, 1, 4))) {
            IndexedCollection<Z> some = new ConcurrentIndexedCollection<>();
            heap.retrieve(q).forEach(some::add);
            assertEquals(some.stream().map(Z::g).min(Double::compare), db.from(c).where(q).min(Z.G),
                    when + ": min of g where " + q);
            assertEquals(some.stream().map(Z::g).max(Double::compare), db.from(c).where(q).max(Z.G),
                    when + ": max of g where " + q);
            assertEquals(some.stream().map(Z::g).distinct().count(), db.from(c).where(q).countDistinct(Z.G),
                    when + ": distinct g where " + q);
        }
        // The SQL view: values with their sign, and no bookkeeping column.
        List<Integer> negative = new ArrayList<>();
        for (Z z : expected) {
            if (Double.compare(z.d(), -0.0) == 0) {
                negative.add(z.id());
            }
        }
        assertEquals(negative, db.query("SELECT id FROM z WHERE signbit(d) ORDER BY id").list(Integer.class),
                when + ": the SQL view's d");
        List<Integer> nested = new ArrayList<>();
        for (Z z : expected) {
            if (z.pt() != null && Double.compare(z.pt().x(), -0.0) == 0) {
                nested.add(z.id());
            }
        }
        assertEquals(nested, db.query("SELECT id FROM z WHERE signbit(pt.x) ORDER BY id").list(Integer.class),
                when + ": the SQL view's pt.x");
        long third = expected.stream().filter(z -> z.ds().size() > 2 && Double.compare(z.ds().get(2), -0.0) == 0).count();
        assertEquals(third, db.query("SELECT count(*) FROM z WHERE signbit(ds[3])").scalar(Long.class),
                when + ": the SQL view's ds[3]");
        assertThrows(QuackException.class, () -> db.query("SELECT _negative_zeros FROM z").count());
        assertThrows(QuackException.class, () -> db.query("SELECT _negative_zero_paths FROM z").count());
    }

    @ParameterizedTest(name = "readers {0}, one at a time {1}, row copy {2}")
    @MethodSource("readersWritesCopies")
    void signsSurviveACheckpointAndReopeningTheFile(List<ResultReaderProvider> readers, boolean oneAtATime,
                                                    boolean rowCopy) {
        Path file = dir.resolve("zeros.duckdb");
        List<Z> expected = items(0, 60);
        try (DuckDBDatabase db = open(file, readers)) {
            IndexedCollection<Z> c = collection(db, rowCopy);
            if (oneAtATime) {
                expected.forEach(c::add);
            } else {
                c.addAll(expected.subList(0, 30));
                c.addAll(expected.subList(30, 60));
            }
            check(db, c, expected, "before a checkpoint");
            db.optimize();
            check(db, c, expected, "after optimize()");
        }
        try (DuckDBDatabase db = open(file, readers)) {
            IndexedCollection<Z> c = collection(db, rowCopy);
            check(db, c, expected, "reopened");
            // Replacing objects: a zero changes sign, and the record of negative zeros with it.
            List<Z> old = new ArrayList<>(expected.subList(0, 10));
            List<Z> flipped = new ArrayList<>();
            for (Z z : old) {
                flipped.add(new Z(z.id(), z.d() == 0 && Double.compare(z.d(), 0.0) == 0 ? -0.0 : 0.0, -z.f(), -z.e(),
                        -z.g(), null, List.of(), new Point(0.0, -0.0f), List.of()));
            }
            c.update(old, flipped);
            for (int i = 0; i < 10; i++) {
                expected.set(i, flipped.get(i));
            }
            db.optimize();
            check(db, c, expected, "after replacing and optimize()");
        }
        try (DuckDBDatabase db = open(file, readers)) {
            IndexedCollection<Z> c = collection(db, rowCopy);
            check(db, c, expected, "reopened after replacing");
        }
    }

    // ---------------------------------------------------------------- files written before the record existed

    /** A class whose table is written as before the record of negative zeros: dropped after writing. */
    public record Old(int id, double e, List<Double> xs) {
        static final SimpleAttribute<Old, Integer> ID = new SimpleAttribute<>(Old.class, Integer.class, "id") {
            @Override public Integer getValue(Old o, QueryOptions q) { return o.id; }
        };
        static final SimpleAttribute<Old, Double> E = new SimpleAttribute<>(Old.class, Double.class, "e") {
            @Override public Double getValue(Old o, QueryOptions q) { return o.e; }
        };
    }

    private static DuckDBPersistence<Old, Integer> openOld(Path file, boolean readOnly) {
        DuckDBPersistence.Builder<Old, Integer> b = DuckDBPersistence.builder(Old.ID).file(file).name("old")
                .columnarLayout(ColumnarLayout.ofRecord(Old.class));
        if (readOnly) {
            b.property("access_mode", "READ_ONLY");
        }
        return b.build();
    }

    private static List<Old> read(IndexedCollection<Old> c) {
        return read(c, all(Old.class), Comparator.comparingInt(Old::id));
    }

    /**
     * A table without the record of negative zeros, whose columns hold -0.0 as DuckDB left them: every 10th row's
     * {@code e}, and the second element of every 10th row's {@code xs}, written by SQL after the library's own
     * columns were dropped. Returns the objects the file holds.
     */
    private List<Old> oldFile(Path file) throws Exception {
        List<Old> expected = new ArrayList<>();
        try (DuckDBPersistence<Old, Integer> p = openOld(file, false)) {
            IndexedCollection<Old> c = new ConcurrentIndexedCollection<>(p);
            List<Old> all = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                all.add(new Old(i, i % 10 == 0 ? 12345.5 : i * 1.25 - 100.3, List.of(i + 0.5, i % 10 == 0 ? 9.5 : i)));
            }
            c.addAll(all);
        }
        try (Connection raw = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = raw.createStatement()) {
            List<String> record = new ArrayList<>();
            try (java.sql.ResultSet rs = s.executeQuery("SELECT column_name FROM duckdb_columns() "
                    + "WHERE table_name = 'old' AND column_name LIKE '\\_negative%' ESCAPE '\\' ORDER BY column_index")) {
                while (rs.next()) {
                    record.add(rs.getString(1));
                }
            }
            assertEquals(List.of("_negative_zeros", "_negative_zero_paths"), record);
            for (String column : record) {
                s.execute("ALTER TABLE old DROP COLUMN " + column);
            }
            s.execute("UPDATE old SET e = -(0.0::DOUBLE), xs = [xs[1], -(0.0::DOUBLE)] WHERE e = 12345.5");
        }
        try (Connection raw = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = raw.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT id, e, signbit(e), xs[1], xs[2], signbit(xs[2]) FROM old "
                     + "ORDER BY id")) {
            while (rs.next()) {
                double e = rs.getDouble(2) == 0 && rs.getBoolean(3) ? -0.0 : rs.getDouble(2);
                double x = rs.getDouble(5) == 0 && rs.getBoolean(6) ? -0.0 : rs.getDouble(5);
                expected.add(new Old(rs.getInt(1), e, List.of(rs.getDouble(4), x)));
            }
        }
        assertEquals(200, expected.size());
        assertEquals(20, expected.stream().filter(o -> Double.compare(o.e(), -0.0) == 0).count(),
                "the old file holds its -0.0 in the column (else this test shows nothing)");
        assertEquals(20, expected.stream().filter(o -> Double.compare(o.xs().get(1), -0.0) == 0).count(),
                "the old file holds its -0.0 in the list");
        return expected;
    }

    @Test
    void aFileWithoutTheRecordOpensReadOnlyAndGetsItWhenWritable() throws Exception {
        Path file = dir.resolve("old.duckdb");
        List<Old> expected = oldFile(file);
        try (DuckDBPersistence<Old, Integer> p = openOld(file, true)) {
            assertEquals(expected, read(new ConcurrentIndexedCollection<>(p)), "read-only, as stored");
        }
        try (Connection raw = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = raw.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM duckdb_columns() "
                     + "WHERE table_name = 'old' AND column_name LIKE '\\_negative%' ESCAPE '\\'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "a read-only open leaves the table as it is");
        }
        try (DuckDBPersistence<Old, Integer> p = openOld(file, false)) {
            IndexedCollection<Old> c = new ConcurrentIndexedCollection<>(p);
            assertEquals(expected, read(c), "writable: the record is added and filled from the columns");
            p.optimize();
            assertEquals(expected, read(c), "after optimize()");
            List<Old> more = new ArrayList<>();
            for (int i = 200; i < 260; i++) {
                more.add(new Old(i, i % 2 == 0 ? -0.0 : 0.0, List.of(-0.0, 0.0)));
            }
            c.addAll(more);
            c.add(new Old(999, -0.0, List.of(0.0, -0.0)));
            expected.addAll(more);
            expected.add(new Old(999, -0.0, List.of(0.0, -0.0)));
        }
        try (DuckDBPersistence<Old, Integer> p = openOld(file, false)) {
            IndexedCollection<Old> c = new ConcurrentIndexedCollection<>(p);
            assertEquals(expected, read(c), "reopened");
            IndexedCollection<Old> heap = new ConcurrentIndexedCollection<>();
            heap.addAll(expected);
            for (Query<Old> q : List.<Query<Old>>of(equal(Old.E, -0.0), equal(Old.E, 0.0), lessThan(Old.E, 0.0),
                    greaterThan(Old.E, -0.0))) {
                assertEquals(read(heap, q, Comparator.comparingInt(Old::id)),
                        read(c, q, Comparator.comparingInt(Old::id)), q.toString());
            }
        }
    }

    /**
     * A field may not take the name of the record's column. Refused as every other class the layout cannot describe
     * (layout providers see only the SPI): an IllegalArgumentException when the collection is built.
     */
    public record Clash(int id, double _negative_zeros) {
        static final SimpleAttribute<Clash, Integer> ID = new SimpleAttribute<>(Clash.class, Integer.class, "id") {
            @Override public Integer getValue(Clash o, QueryOptions q) { return o.id; }
        };
    }

    @Test
    void aFieldWithTheNameOfTheRecordIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DuckDBPersistence.builder(Clash.ID).columnarLayout(ColumnarLayout.ofRecord(Clash.class)).build());
        assertTrue(e.getMessage().contains("_negative_zeros") && e.getMessage().contains("rename"), e.getMessage());
    }
}
