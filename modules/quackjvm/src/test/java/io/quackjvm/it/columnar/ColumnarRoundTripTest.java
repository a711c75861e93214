package io.quackjvm.it.columnar;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.spi.ResultReaderProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random objects with a field of every supported type, nulls and extremes included, come back equal: through the
 * Appender (bulk) and prepared statements (single adds), from a file reopened, once per result reader found (the
 * JDBC reader today; any reader added later runs the same test).
 */
class ColumnarRoundTripTest {

    @TempDir
    Path dir;

    /**
     * Every usable reader found. A bulk reader (Arrow) is tested beside the row-by-row one, which the engine
     * still uses for point lookups; scans and the reopened file's reads go through the bulk reader.
     */
    static Stream<List<ResultReaderProvider>> readers() {
        // The test module declares no 'uses'; a module may add one for itself.
        ColumnarRoundTripTest.class.getModule().addUses(ResultReaderProvider.class);
        List<ResultReaderProvider> found = new ArrayList<>();
        for (ResultReaderProvider p : ServiceLoader.load(ResultReaderProvider.class)) {
            if (p.unavailableReason().isEmpty()) {
                found.add(p);
            }
        }
        ResultReaderProvider rowByRow = found.stream().filter(p -> !p.bulk()).findFirst().orElseThrow();
        List<List<ResultReaderProvider>> sets = new ArrayList<>();
        sets.add(List.of(rowByRow));
        found.stream().filter(ResultReaderProvider::bulk).forEach(bulk -> sets.add(List.of(rowByRow, bulk)));
        assertTrue(sets.size() >= 2, "the Arrow reader should be usable in this test run: " + found);
        return sets.stream();
    }

    /** Fixed seeds, so that a failure is repeatable; each names itself in the failure message. */
    static Stream<org.junit.jupiter.params.provider.Arguments> readersAndSeeds() {
        return readers().flatMap(r -> Stream.of(11L, 4242L, 20261130L)
                .map(seed -> org.junit.jupiter.params.provider.Arguments.of(r, seed)));
    }

    private DuckDBPersistence<Everything, Integer> open(Path file, List<ResultReaderProvider> readers) {
        return DuckDBPersistence.builder(Everything.ID).file(file).memoryLimit("256MB")
                .columnarLayout(ColumnarLayout.ofRecord(Everything.class))
                .resultReaders(readers.toArray(new ResultReaderProvider[0])).build();
    }

    @ParameterizedTest(name = "readers {0}, seed {1}")
    @MethodSource("readersAndSeeds")
    void randomObjectsOfEveryTypeComeBackEqual(List<ResultReaderProvider> reader, long seed) {
        Generator g = new Generator(seed);
        Map<Integer, Everything> expected = new HashMap<>();
        List<Everything> bulk = new ArrayList<>();
        for (int id = 0; id < 1500; id++) {
            bulk.add(g.next(id));
        }
        Path file = dir.resolve("everything-" + reader.size() + "-" + seed + ".duckdb");
        try (DuckDBPersistence<Everything, Integer> p = open(file, reader)) {
            IndexedCollection<Everything> c = new ConcurrentIndexedCollection<>(p);
            c.addAll(bulk); // Appender path
            for (int id = 1500; id < 1560; id++) {
                Everything e = g.next(id);
                c.add(e); // prepared-statement path
                expected.put(id, e);
            }
            bulk.forEach(e -> expected.put(e.id(), e));
            assertAllEqual(expected, c, seed);
        }
        try (DuckDBPersistence<Everything, Integer> p = open(file, reader)) {
            assertAllEqual(expected, new ConcurrentIndexedCollection<>(p), seed);
        }
    }

    static void assertAllEqual(Map<Integer, Everything> expected, IndexedCollection<Everything> c, long seed) {
        assertEquals(expected.size(), c.size());
        int seen = 0;
        for (Everything e : c) {
            Everything want = expected.get(e.id());
            if (!want.equals(e)) {
                // name the first differing component, for a readable failure
                for (var rc : Everything.class.getRecordComponents()) {
                    try {
                        Object a = rc.getAccessor().invoke(want);
                        Object b = rc.getAccessor().invoke(e);
                        if (!java.util.Objects.deepEquals(a, b)) {
                            throw new AssertionError("seed " + seed + ", object " + e.id() + ", component "
                                    + rc.getName() + ": stored " + a + " read " + b);
                        }
                    } catch (ReflectiveOperationException x) {
                        throw new AssertionError(x);
                    }
                }
            }
            seen++;
        }
        assertEquals(expected.size(), seen, "seed " + seed);
    }

    @Test
    void offsetDateTimeKeepsTheInstantNotTheOffset() {
        try (DuckDBPersistence<Everything, Integer> p = DuckDBPersistence.builder(Everything.ID)
                .columnarLayout(ColumnarLayout.ofRecord(Everything.class)).build()) {
            IndexedCollection<Everything> c = new ConcurrentIndexedCollection<>(p);
            Everything e = new Generator(1).next(1);
            OffsetDateTime paris = OffsetDateTime.of(2024, 5, 1, 12, 0, 0, 0, ZoneOffset.ofHours(2));
            c.add(withOffsetDateTime(e, paris));
            OffsetDateTime back = c.iterator().next().offsetDateTime();
            assertTrue(back.isEqual(paris));
            assertEquals(ZoneOffset.UTC, back.getOffset());
        }
    }

    @Test
    void valuesDuckDBCannotHoldAreRefusedNamingTheField() {
        try (DuckDBPersistence<Everything, Integer> p = DuckDBPersistence.builder(Everything.ID)
                .columnarLayout(ColumnarLayout.ofRecord(Everything.class)).build()) {
            IndexedCollection<Everything> c = new ConcurrentIndexedCollection<>(p);
            Everything e = new Generator(2).next(1);
            IllegalArgumentException tooOld = assertThrows(IllegalArgumentException.class, () -> c.add(
                    withLocalDateTime(e, Generator.MIN_TIMESTAMP.minusNanos(1000))));
            assertTrue(tooOld.getMessage().contains("localDateTime") && tooOld.getMessage().contains("TIMESTAMP range"),
                    tooOld.getMessage());
            IllegalArgumentException nanos = assertThrows(IllegalArgumentException.class, () -> c.add(
                    withLocalDateTime(e, LocalDateTime.of(2020, 1, 1, 0, 0, 0, 1))));
            assertTrue(nanos.getMessage().contains("microseconds"), nanos.getMessage());
            IllegalArgumentException surrogate = assertThrows(IllegalArgumentException.class, () -> c.add(
                    withText(e, "a\uD800b")));
            assertTrue(surrogate.getMessage().contains("'text'") && surrogate.getMessage().contains("surrogate"),
                    surrogate.getMessage());
            IllegalArgumentException farDate = assertThrows(IllegalArgumentException.class, () -> c.add(
                    withLocalDate(e, Generator.MAX_DATE.plusDays(1))));
            assertTrue(farDate.getMessage().contains("DATE range"), farDate.getMessage());
            assertEquals(0, c.size(), "nothing refused was stored");
        }
    }

    private static Everything withOffsetDateTime(Everything e, OffsetDateTime v) {
        return copy(e, "offsetDateTime", v);
    }

    private static Everything withLocalDateTime(Everything e, LocalDateTime v) {
        return copy(e, "localDateTime", v);
    }

    private static Everything withLocalDate(Everything e, LocalDate v) {
        return copy(e, "localDate", v);
    }

    private static Everything withText(Everything e, String v) {
        return copy(e, "text", v);
    }

    static Everything copy(Everything e, String component, Object value) {
        try {
            var rcs = Everything.class.getRecordComponents();
            Object[] args = new Object[rcs.length];
            Class<?>[] types = new Class<?>[rcs.length];
            for (int i = 0; i < rcs.length; i++) {
                types[i] = rcs[i].getType();
                args[i] = rcs[i].getName().equals(component) ? value : rcs[i].getAccessor().invoke(e);
            }
            return Everything.class.getDeclaredConstructor(types).newInstance(args);
        } catch (ReflectiveOperationException x) {
            throw new AssertionError(x);
        }
    }

}
