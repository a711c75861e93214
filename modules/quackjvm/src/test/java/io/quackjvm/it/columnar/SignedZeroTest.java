package io.quackjvm.it.columnar;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBPersistence;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The sign of zero in FLOAT and DOUBLE columns of the columnar layout. Java's {@code equals} tells {@code 0.0} from
 * {@code -0.0}, so a read must give back the very value written. Up to a checkpoint DuckDB keeps both (first test).
 * A checkpoint does not, in DuckDB 1.5.5 (the second test, disabled until DuckDB is fixed): a column segment whose
 * values are all zeros of either sign has statistics min == max, and the checkpoint stores it as a constant segment
 * (one value for every row; this cannot be switched off per column or per database); RLE merges runs of 0.0 and
 * -0.0 the same way. See benchmarks/results/negative-zero/ for the raw-DuckDB reproduction and
 * DuckDB issue 25580 / pull requests 25592 (constant segments, open) and 25709 (RLE, merged for 2.0).
 */
class SignedZeroTest {

    /** Two floating components: a DOUBLE and a FLOAT column. */
    public record Z(int id, double d, float f) {
        static final SimpleAttribute<Z, Integer> ID = new SimpleAttribute<>(Z.class, Integer.class, "id") {
            @Override public Integer getValue(Z o, QueryOptions q) { return o.id; }
        };
    }

    private static List<Z> zeros() {
        List<Z> out = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            double z = i % 2 == 0 ? 0.0 : -0.0;
            out.add(new Z(i, z, (float) z));
        }
        return out;
    }

    private static List<Z> read(IndexedCollection<Z> c, Query<Z> q) {
        List<Z> out = new ArrayList<>();
        try (ResultSet<Z> rs = c.retrieve(q)) {
            rs.forEach(out::add);
        }
        out.sort(Comparator.comparingInt(Z::id));
        return out;
    }

    private static void check(IndexedCollection<Z> c, List<Z> expected) {
        assertEquals(expected, read(c, all(Z.class)), "bulk read");
        for (Z z : expected) {
            assertEquals(List.of(z), read(c, equal(Z.ID, z.id())), "point read of " + z.id());
        }
    }

    @ParameterizedTest(name = "one at a time {0}")
    @ValueSource(booleans = {false, true})
    void signsSurviveWritesAndReadsBeforeACheckpoint(boolean oneAtATime) {
        try (DuckDBPersistence<Z, Integer> p = DuckDBPersistence.builder(Z.ID)
                .columnarLayout(ColumnarLayout.ofRecord(Z.class)).build()) {
            IndexedCollection<Z> c = new ConcurrentIndexedCollection<>(p);
            List<Z> items = zeros();
            if (oneAtATime) {
                items.forEach(c::add);
            } else {
                c.addAll(items.subList(0, 3));
                c.addAll(items.subList(3, 6));
            }
            check(c, items);
        }
    }

    @Disabled("DuckDB 1.5.5 folds 0.0 and -0.0 into one value at a checkpoint (constant segments, RLE): "
            + "benchmarks/results/negative-zero/; enable once the DuckDB in use keeps them apart")
    @ParameterizedTest(name = "one at a time {0}")
    @ValueSource(booleans = {false, true})
    void signsSurviveACheckpoint(boolean oneAtATime) {
        try (DuckDBPersistence<Z, Integer> p = DuckDBPersistence.builder(Z.ID)
                .columnarLayout(ColumnarLayout.ofRecord(Z.class)).build()) {
            IndexedCollection<Z> c = new ConcurrentIndexedCollection<>(p);
            List<Z> items = zeros();
            if (oneAtATime) {
                items.forEach(c::add);
            } else {
                c.addAll(items);
            }
            p.optimize();
            check(c, items);
        }
    }
}
