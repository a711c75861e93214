package io.quackjvm.testkit;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.spi.AttributeColumn;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.LayoutDescription;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.ValueType;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static com.googlecode.cqengine.query.QueryFactory.all;
import static com.googlecode.cqengine.query.QueryFactory.equal;
import static com.googlecode.cqengine.query.QueryFactory.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of an {@link ObjectLayoutProvider}: its tables describe their columns, write every column of
 * a row exactly once, round-trip objects through a real DuckDB table, are safe to share between threads, and
 * work inside a CQEngine collection.
 *
 * <pre>{@code
 * class JsonTextLayoutContractTests extends ObjectLayoutContract<Book, String> {
 *     protected ObjectLayoutProvider provider() { return new JsonTextLayoutProvider(); }
 *     protected SimpleAttribute<Book, String> primaryKey() { return Book.ISBN; }
 *     protected List<Book> sampleObjects() { return List.of(...); }
 * }
 * }</pre>
 *
 * A layout that stores the fields a user's {@link ColumnarLayout} describes (as {@code "columnar"} does) also
 * overrides {@link #columnarLayout()}.
 *
 * <p>The collection test needs a result reader, a connection pool and a write policy: put quackjvm's defaults
 * (artifact {@code quackjvm}) on the test path.
 *
 * @param <O> the stored type used by the test
 * @param <K> its primary key type
 */
public abstract class ObjectLayoutContract<O, K extends Comparable<K>> extends ProviderContract<ObjectLayoutProvider> {

    /** The primary key of the sample objects. */
    protected abstract SimpleAttribute<O, K> primaryKey();

    /**
     * At least three objects with distinct primary keys, {@code equals} by value, covering what the layout
     * must store: nulls, empty strings, extreme numbers, non-ASCII text.
     */
    protected abstract List<O> sampleObjects();

    /**
     * The columnar layout the provider is tested with, for a layout that stores the fields it describes: its
     * {@link ColumnarLayout#description()} is what {@code createTable} gets, and the collection test builds with
     * {@link DuckDBPersistence.Builder#columnarLayout(ColumnarLayout)}. {@code null}, the default, for a layout that
     * needs no description (such as {@code "blob"}).
     */
    protected ColumnarLayout<? super O> columnarLayout() {
        return null;
    }

    private ObjectTable<O> table() {
        ColumnarLayout<? super O> columnar = columnarLayout();
        ObjectTable<O> table = provider().createTable(primaryKey().getObjectType(),
                columnar == null ? null : columnar.description());
        assertNotNull(table, "createTable must not return null");
        return table;
    }

    private List<O> samples() {
        List<O> samples = sampleObjects();
        assertTrue(samples.size() >= 3, "sampleObjects() must return at least three objects");
        return samples;
    }

    @Test
    public void columnsArePlainUniqueAndTyped() {
        List<Column> columns = table().columns();
        assertFalse(columns.isEmpty(), "An object table must have at least one column");
        Set<String> names = new HashSet<>();
        for (Column c : columns) {
            assertTrue(names.add(c.name().toLowerCase(java.util.Locale.ROOT)),
                    () -> "Column names must be unique ignoring case: " + columns);
            assertFalse(c.sqlType().isBlank(), () -> "Column " + c.name() + " has no SQL type");
        }
        assertEquals(columns, table().columns(), "columns() must describe the same table every time");
    }

    /**
     * Every attribute column the table declares ({@link ObjectTable#attributeColumns()}) is one of its own columns,
     * of a DuckDB type its comparison admits, and each attribute is declared once: the engine answers queries on a
     * declared attribute from the column, so a wrong declaration gives wrong answers.
     */
    @Test
    public void declaredAttributeColumnsAreItsOwnColumnsOfFittingTypes() {
        ObjectTable<O> table = table();
        Set<String> attributes = new HashSet<>();
        for (AttributeColumn a : table.attributeColumns()) {
            assertTrue(attributes.add(a.attribute()), () -> "Attribute '" + a.attribute() + "' is declared twice");
            Column own = null;
            for (Column c : table.columns()) {
                if (c.name().equalsIgnoreCase(a.column().name())) {
                    own = c;
                }
            }
            assertNotNull(own, () -> "Attribute '" + a.attribute() + "' is declared on column '" + a.column().name()
                    + "', which is not one of columns() " + table.columns());
            String type = own.sqlType().toUpperCase(java.util.Locale.ROOT);
            boolean fits = switch (a.comparison()) {
                case NATIVE -> a.javaType().isEnum() ? type.startsWith("ENUM")
                        : type.equals(Map.of(Integer.class, "INTEGER", Long.class, "BIGINT", Short.class, "SMALLINT",
                        Byte.class, "TINYINT", Boolean.class, "BOOLEAN", java.time.LocalDate.class, "DATE")
                        .get(a.javaType()));
                case SIGNED_ZERO -> type.equals(a.javaType() == Double.class ? "DOUBLE" : "FLOAT");
                case UTF8_ORDER -> type.equals("VARCHAR");
                case ENCODED -> type.equalsIgnoreCase(ValueType.of(a.javaType()).sqlType());
            };
            String found = type;
            assertTrue(fits, () -> "Attribute '" + a.attribute() + "' (" + a.javaType().getName() + ") is declared "
                    + a.comparison() + " on column '" + a.column().name() + "' of type " + found
                    + ", which that comparison does not describe");
        }
    }

    @Test
    public void writeGivesEveryColumnExactlyOneValue() throws Exception {
        ObjectTable<O> table = table();
        assertOneValuePerColumn(table.columns(), table::write, "write()");
    }

    @Test
    public void objectsSurviveARoundTripThroughADuckDBTable() throws Exception {
        ObjectTable<O> table = table();
        assertEquals(samples(), roundTrip(table.columns(), table::write, table::read),
                "Objects read back must equal the objects written, in order");
    }

    @Test
    public void writeCopyGivesEveryCopyColumnExactlyOneValue() throws Exception {
        ObjectTable<O> table = table();
        assertFalse(table.copyColumns().isEmpty(), "copyColumns() must name at least one column");
        assertOneValuePerColumn(table.copyColumns(), table::writeCopy, "writeCopy()");
    }

    private void assertOneValuePerColumn(List<Column> columns, Writing<O> writer, String what) throws Exception {
        for (O object : samples()) {
            JdbcRows.CapturingWriter row = new JdbcRows.CapturingWriter();
            writer.write(object, row);
            assertEquals(columns.size(), row.values.size(),
                    () -> what + " must put exactly one value per column " + columns + " for " + object);
        }
    }

    @Test
    public void copiesSurviveARoundTripThroughADuckDBTable() throws Exception {
        ObjectTable<O> table = table();
        assertEquals(samples(), roundTrip(table.copyColumns(), table::writeCopy, table::readCopy),
                "Objects read back from their copies (a covering index's) must equal the objects written, in order");
    }

    @FunctionalInterface
    private interface Writing<O> {
        void write(O object, io.quackjvm.api.spi.RowWriter row) throws java.sql.SQLException;
    }

    @FunctionalInterface
    private interface Reading<O> {
        O read(io.quackjvm.api.spi.RowSource row) throws java.sql.SQLException;
    }

    /** Writes the samples into a DuckDB table of {@code columns} with {@code writer}, then reads them back. */
    private List<O> roundTrip(List<Column> columns, Writing<O> writer, Reading<O> reader) throws Exception {
        String ddl = columns.stream().map(c -> "\"" + c.name() + "\" " + c.sqlType())
                .collect(Collectors.joining(", ", "CREATE TABLE contract_objects (seq INTEGER, ", ")"));
        String insert = "INSERT INTO contract_objects VALUES (?" + ", ?".repeat(columns.size()) + ")";
        String select = columns.stream().map(c -> "\"" + c.name() + "\"")
                .collect(Collectors.joining(", ", "SELECT ", " FROM contract_objects ORDER BY seq"));
        List<O> samples = samples();
        List<O> read = new ArrayList<>();
        try (Connection db = Scratch.open()) {
            try (Statement s = db.createStatement()) {
                s.execute(ddl);
            }
            try (PreparedStatement ps = db.prepareStatement(insert)) {
                for (int i = 0; i < samples.size(); i++) {
                    ps.setInt(1, i);
                    writer.write(samples.get(i), new JdbcRows.StatementWriter(ps, 2));
                    ps.executeUpdate();
                }
            }
            try (Statement s = db.createStatement(); java.sql.ResultSet rs = s.executeQuery(select)) {
                JdbcRows.ResultSetSource source = new JdbcRows.ResultSetSource(rs);
                while (rs.next()) {
                    read.add(reader.read(source));
                }
            }
        }
        return read;
    }

    @Test
    public void reconcileAcceptsTheTableItDescribes() {
        ObjectTable<O> table = table();
        assertEquals(List.of(), table.reconcile(table.columns()),
                "reconcile() of a table with exactly columns() must add nothing");
        // What the engine passes on reopen: names and types as read from the file, no compression.
        List<Column> asRead = table.columns().stream().map(c -> new Column(c.name(), c.sqlType())).toList();
        assertEquals(List.of(), table.reconcile(asRead),
                "reconcile() of the table as read back from a file (no compression) must add nothing");
    }

    @Test
    public void rejectsALayoutDescriptionItDoesNotUnderstand() {
        LayoutDescription nonsense = new LayoutDescription() {
            @Override
            public Class<?> objectType() {
                return primaryKey().getObjectType();
            }

            @Override
            public String toString() {
                return "a layout description no provider understands";
            }
        };
        assertThrows(IllegalArgumentException.class,
                () -> provider().createTable(primaryKey().getObjectType(), nonsense),
                "createTable must throw IllegalArgumentException for a layout description it does not understand");
    }

    @Test
    public void oneTableWritesAndReadsFromManyThreadsAtOnce() throws Exception {
        ObjectTable<O> table = table();
        List<O> samples = samples();
        List<List<Object>> expected = new ArrayList<>();
        for (O o : samples) {
            JdbcRows.CapturingWriter w = new JdbcRows.CapturingWriter();
            table.write(o, w);
            expected.add(w.values);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    for (int round = 0; round < 200; round++) {
                        for (int i = 0; i < samples.size(); i++) {
                            JdbcRows.CapturingWriter w = new JdbcRows.CapturingWriter();
                            table.write(samples.get(i), w);
                            if (!expected.get(i).equals(w.values)) {
                                return false;
                            }
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : results) {
                assertTrue(f.get(), "Concurrent writes of the same object must produce the same row values");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    public void storesAndQueriesObjectsInACQEngineCollection() {
        List<O> samples = samples();
        SimpleAttribute<O, K> pk = primaryKey();
        DuckDBPersistence.Builder<O, K> builder = DuckDBPersistence.builder(pk).layout(provider());
        if (columnarLayout() != null) {
            builder.columnarLayout(columnarLayout());
        }
        try (DuckDBPersistence<O, K> persistence = builder.build()) {
            IndexedCollection<O> collection = new ConcurrentIndexedCollection<>(persistence);
            assertTrue(collection.addAll(samples));
            assertEquals(samples.size(), collection.size());
            O first = samples.get(0);
            K firstKey = pk.getValue(first, noOptions());
            try (ResultSet<O> rs = collection.retrieve(equal(pk, firstKey))) {
                assertEquals(first, rs.uniqueResult());
            }
            List<K> keys = new ArrayList<>();
            for (O o : samples) {
                keys.add(pk.getValue(o, noOptions()));
            }
            try (ResultSet<O> rs = collection.retrieve(in(pk, keys))) {
                assertEquals(new HashSet<>(samples), toSet(rs));
            }
            assertTrue(collection.remove(first));
            try (ResultSet<O> rs = collection.retrieve(all(pk.getObjectType()))) {
                assertEquals(new HashSet<>(samples.subList(1, samples.size())), toSet(rs));
            }
        }
    }

    private static <T> Set<T> toSet(ResultSet<T> rs) {
        Set<T> set = new HashSet<>();
        rs.forEach(set::add);
        return set;
    }

    private static QueryOptions noOptions() {
        return new QueryOptions();
    }
}
