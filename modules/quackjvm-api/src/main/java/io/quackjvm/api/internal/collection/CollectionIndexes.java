package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.Writers;
import io.quackjvm.api.internal.index.IndexTable;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.IndexStrategyProvider;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.ValueType;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The attribute index tables attached to one collection and their whole life: the file's index metadata, attaching
 * (reusing an up-to-date table found in the file, else creating and filling it), detaching, optimizing, marking
 * tables this run does not maintain as stale, and writing the index rows of objects that the writes hand it. It
 * never writes the object table and never decides what is stored: {@link CollectionWrites} calls it inside its
 * transaction. Thread-safe.
 */
public final class CollectionIndexes<O, A> {

    /** One row per index table of the file: what built it, so a reopened collection can reuse it. */
    private static final String INDEXES = "quackjvm_indexes";
    private final CollectionSchema<O, A> schema;
    private final CollectionStatements statements;
    private final int stagingChunkRows;
    private final ProgressReporter progress;
    /** The attribute indexes attached to this collection; every write maintains their tables in its transaction. */
    private final List<IndexTable<O, ?>> indexes = new CopyOnWriteArrayList<>();
    /** Index tables found in the file that no index of this run has attached yet: a write marks them stale. */
    private final Set<String> unattached = ConcurrentHashMap.newKeySet();

    CollectionIndexes(CollectionSchema<O, A> schema, CollectionStatements statements, int stagingChunkRows,
                      ProgressReporter progress) {
        this.schema = schema;
        this.progress = progress;
        this.statements = statements;
        this.stagingChunkRows = stagingChunkRows;
    }

    /** The index metadata table: one row per index table. */
    static final String METADATA_DDL = "CREATE TABLE IF NOT EXISTS " + INDEXES + " (table_name VARCHAR PRIMARY KEY, "
            + "collection VARCHAR, attribute VARCHAR, strategy VARCHAR, value_type VARCHAR, stale BOOLEAN)";

    private static void ensureIndexMetadata(Statement s) throws SQLException {
        s.execute(METADATA_DDL);
    }

    /** Creates the index metadata when the file may be written ({@link CollectionTable#create}, once a database). */
    void ensureMetadata(PooledConnection c) throws SQLException {
        if (!schema.db.readOnly()) {
            try (Statement s = c.connection().createStatement()) {
                ensureIndexMetadata(s);
            }
        }
    }

    /** Notes the index tables the file holds for this collection, after {@link #ensureMetadata}. */
    void open(PooledConnection c) throws SQLException {
        if (schema.db.readOnly() && !CollectionSchema.tableExists(c, INDEXES)) {
            return;
        }
        try (PreparedStatement p = c.connection().prepareStatement("SELECT table_name FROM " + INDEXES
                + " WHERE collection = ?")) {
            p.setString(1, schema.name);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    unattached.add(rs.getString(1));
                }
            }
        }
    }

    /**
     * An index table in the file that this run has not attached is not maintained, so the first write marks it
     * stale and attaching it later rebuilds it. If the write rolls back, nothing changed and it was not stale.
     */
    void markUnattachedStale(PooledConnection c) throws SQLException {
        if (unattached.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>(unattached);
        try (PreparedStatement p = c.connection().prepareStatement("UPDATE " + INDEXES
                + " SET stale = true WHERE table_name = ?")) {
            for (String n : names) {
                p.setString(1, n);
                p.executeUpdate();
            }
        }
        unattached.removeAll(names);
    }

    /** Whether index tables in the file are not attached by this run (the next write marks them stale). */
    boolean hasUnattached() {
        return !unattached.isEmpty();
    }

    /** Whether any attribute index is attached. */
    boolean isEmpty() {
        return indexes.isEmpty();
    }

    /** The attached attribute indexes. */
    public List<IndexTable<O, ?>> all() {
        return List.copyOf(indexes);
    }

    /** The quoted names of the attached index tables, in attachment order. */
    List<String> sqlNames() {
        List<String> names = new ArrayList<>(indexes.size());
        for (IndexTable<O, ?> index : indexes) {
            names.add(index.sqlName());
        }
        return names;
    }

    /**
     * Describes an attribute index on this collection (nothing is created until {@link #attach}); a covering one
     * copies the layout's {@link io.quackjvm.api.spi.ObjectTable#copyColumns} as they are now.
     */
    public <V> IndexTable<O, V> describe(Attribute<O, V> attribute, ValueType<V> valueType,
                                         IndexStrategyProvider strategy, boolean covering) {
        return new IndexTable<>(schema.name, schema.keyType.sqlType, attribute, valueType, strategy,
                covering ? schema.layout.copyColumns() : List.of());
    }

    /**
     * Attaches an attribute index, under the write lock and in one transaction: reuses its table when the file
     * holds an up-to-date one built the same way, else (re)creates it and fills it from the stored objects.
     *
     * @return {@code true} when the table was built now
     */
    public boolean attach(IndexTable<O, ?> index, QueryOptions options) {
        for (IndexTable<O, ?> other : indexes) {
            if (other.name().equals(index.name())) {
                throw new IllegalStateException("Collection '" + schema.name + "' already has a DuckDB index on "
                        + "attribute '" + index.attribute().getAttributeName() + "' (table " + other.name()
                        + ", strategy '" + other.strategy().name() + "'); remove it with removeIndex before adding "
                        + "another one");
            }
        }
        unattached.remove(index.name());
        Database db = schema.db;
        if (db.readOnly()) {
            // Nothing can be written: an up-to-date table in the file is used as it is, or the index is refused.
            if (!statements.read(options, "Looking up index table " + index.name(), c -> reusable(c, index))) {
                db.checkWritable("Building the index table of attribute '" + index.attribute().getAttributeName()
                        + "' (the file has none up to date)");
            }
            indexes.add(index);
            return false;
        }
        return statements.write(options, "Creating index table " + index.name(), c -> {
            try (Statement s = c.connection().createStatement()) {
                ensureIndexMetadata(s);
            }
            boolean reuse = reusable(c, index);
            if (!reuse) {
                try (Statement s = c.connection().createStatement()) {
                    s.execute("DROP TABLE IF EXISTS " + index.sqlName());
                    for (String ddl : index.strategy().create(index.definition())) {
                        s.execute(index.covering() && ddl.equals(index.definition().createTableStatement())
                                ? coveringTableStatement(index) : ddl);
                    }
                }
                try (PreparedStatement p = c.connection().prepareStatement("INSERT OR REPLACE INTO " + INDEXES
                        + " VALUES (?, ?, ?, ?, ?, false)")) {
                    p.setString(1, index.name());
                    p.setString(2, schema.name);
                    p.setString(3, index.attribute().getAttributeName());
                    p.setString(4, index.storedStrategy());
                    p.setString(5, index.valueType().signature());
                    p.executeUpdate();
                }
                fill(c, index);
            }
            indexes.add(index);
            return !reuse;
        });
    }

    /** Whether the file holds an up-to-date table for {@code index}, built the same way. */
    private boolean reusable(PooledConnection c, IndexTable<O, ?> index) throws SQLException {
        if (schema.db.readOnly() && !CollectionSchema.tableExists(c, INDEXES)) {
            return false;
        }
        if (schema.db.isInMemory()) {
            // Nothing but this database writes an in-memory catalog, and it drops an index table with its row; a
            // catalog query would read every catalog of the shared engine.
            try (PreparedStatement p = c.connection().prepareStatement("SELECT strategy, value_type, stale FROM "
                    + INDEXES + " WHERE table_name = ?")) {
                p.setString(1, index.name());
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() && rs.getString(1).equals(index.storedStrategy())
                            && rs.getString(2).equals(index.valueType().signature()) && !rs.getBoolean(3);
                }
            }
        }
        try (PreparedStatement p = c.connection().prepareStatement("SELECT strategy, value_type, stale, "
                + "(SELECT count(*) FROM information_schema.tables WHERE table_catalog = current_database() "
                + "AND table_schema = current_schema() AND table_name = ?) FROM " + INDEXES
                + " WHERE table_name = ?")) {
            p.setString(1, index.name());
            p.setString(2, index.name());
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() && rs.getString(1).equals(index.storedStrategy())
                        && rs.getString(2).equals(index.valueType().signature()) && !rs.getBoolean(3)
                        && rs.getLong(4) > 0;
            }
        }
    }

    /**
     * The strategy's two-column {@code CREATE TABLE} with the copied layout columns after {@code value}. The strategy
     * statements run around it unchanged (an ART on {@code value} is built on this table).
     */
    private String coveringTableStatement(IndexTable<O, ?> index) {
        String create = index.definition().createTableStatement();
        StringBuilder cols = new StringBuilder();
        for (Column c : index.coveredColumns()) {
            cols.append(", ").append(CollectionSchema.quote(IndexTable.coveredName(c))).append(' ').append(c.sqlType());
            if (c.compression() != null) {
                cols.append(" USING COMPRESSION ").append(c.compression());
            }
        }
        return create.substring(0, create.length() - 1) + cols + ")";
    }

    /**
     * Fills a new index table from the stored objects, a chunk at a time in key order (keyset pagination, so that
     * neither the whole collection nor a streaming result is held while the Appender writes on this connection).
     */
    private void fill(PooledConnection c, IndexTable<O, ?> index) throws SQLException {
        String key = CollectionSchema.KEY;
        String select = "SELECT " + schema.columns.sqlList() + " FROM " + schema.table;
        String first = select + " ORDER BY " + key + " LIMIT " + stagingChunkRows;
        String next = select + " WHERE " + key + " > ? ORDER BY " + key + " LIMIT " + stagingChunkRows;
        A last = null;
        while (true) {
            List<O> chunk = statements.readAll(null, c, last == null ? first : next,
                    last == null ? List.of() : List.of(schema.keyType.encode(last)), true, schema.layout);
            if (chunk.isEmpty()) {
                return;
            }
            Map<A, O> byKey = new LinkedHashMap<>();
            for (O o : chunk) {
                byKey.put(schema.keyOf(o), o);
            }
            appendRows(c, byKey, List.of(index));
            if (chunk.size() < stagingChunkRows) {
                return;
            }
            last = schema.keyOf(chunk.get(chunk.size() - 1));
        }
    }

    /** Detaches an attribute index and drops its table, in one transaction. */
    public void detach(IndexTable<O, ?> index, QueryOptions options) {
        statements.write(options, "Dropping index table " + index.name(), c -> {
            indexes.remove(index);
            try (Statement s = c.connection().createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + index.sqlName());
            }
            try (PreparedStatement p = c.connection().prepareStatement("DELETE FROM " + INDEXES
                    + " WHERE table_name = ?")) {
                p.setString(1, index.name());
                p.executeUpdate();
            }
            return null;
        });
    }

    /** Rewrites every attached index table sorted by value (each strategy's {@code optimize}), in one transaction. */
    public void optimize() {
        if (indexes.isEmpty()) {
            return;
        }
        statements.write(null, "Optimizing index tables", c -> {
            List<IndexTable<O, ?>> all = List.copyOf(indexes);
            List<Long> rows = new ArrayList<>();
            long total = 0;
            for (IndexTable<O, ?> index : all) {
                rows.add(rowCount(c, index.sqlName()));
                total += rows.get(rows.size() - 1);
            }
            ProgressReporter.Tracker tracker = progress.start("optimize", total);
            try (Statement s = c.connection().createStatement()) {
                for (int i = 0; i < all.size(); i++) {
                    for (String sql : all.get(i).strategy().optimize(all.get(i).definition())) {
                        s.execute(sql);
                    }
                    all.get(i).measureDistinct(c);
                    tracker.advance(rows.get(i));
                }
            } finally {
                tracker.finish();
            }
            return null;
        });
    }

    /** The number of rows of a table, as the connection's transaction sees it. */
    static long rowCount(PooledConnection c, String sqlTable) throws SQLException {
        try (Statement s = c.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM " + sqlTable)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Inserts the index rows of one object, statement by statement (for small writes). */
    void insertRows(PooledConnection c, A key, O object) throws SQLException {
        // Options of this write alone: attribute code may keep things in them.
        QueryOptions options = new QueryOptions();
        for (IndexTable<O, ?> index : indexes) {
            Set<Object> values = index.encodedValues(object, options);
            if (values.isEmpty()) {
                continue;
            }
            PreparedStatement insert = c.prepare("INSERT INTO " + index.sqlName() + " VALUES (?, ?"
                    + ", ?".repeat(index.coveredColumns().size()) + ")");
            try {
                for (Object v : values) {
                    schema.keyType.bind(insert, 1, key);
                    insert.setObject(2, v);
                    if (index.covering()) {
                        schema.layout.writeCopy(object, new Writers.StatementRow(insert, 3));
                    }
                    insert.executeUpdate();
                }
            } finally {
                c.recycle(insert);
            }
        }
    }

    /** Appends the index rows of many objects through DuckDB's Appender, one index table after the other. */
    void appendRows(PooledConnection c, Map<A, O> byKey) throws SQLException {
        appendRows(c, byKey, indexes);
    }

    private void appendRows(PooledConnection c, Map<A, O> byKey, List<IndexTable<O, ?>> targets)
            throws SQLException {
        if (targets.isEmpty()) {
            return;
        }
        DuckDBConnection duck = c.connection().unwrap(DuckDBConnection.class);
        QueryOptions options = new QueryOptions();
        for (IndexTable<O, ?> index : targets) {
            try (DuckDBAppender appender = duck.createAppender(DuckDBConnection.DEFAULT_SCHEMA, index.name())) {
                Writers.AppenderRow row = new Writers.AppenderRow(appender);
                int inChunk = 0;
                for (Map.Entry<A, O> e : byKey.entrySet()) {
                    for (Object v : index.encodedValues(e.getValue(), options)) {
                        appender.beginRow();
                        schema.keyType.write(row, e.getKey());
                        row.putObject(v);
                        if (index.covering()) {
                            schema.layout.writeCopy(e.getValue(), row);
                        }
                        appender.endRow();
                        if (++inChunk == stagingChunkRows) {
                            appender.flush();
                            inChunk = 0;
                        }
                    }
                }
            }
        }
    }
}
