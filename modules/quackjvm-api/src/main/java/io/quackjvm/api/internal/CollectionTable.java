package io.quackjvm.api.internal;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.index.support.CloseableIterator;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.RowCursor;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The object table of one collection: one row per object, keyed by the primary key, laid out by an
 * {@link ObjectTable}. Every write runs in the request's transaction; every read is one SQL statement.
 * Thread-safe.
 */
public final class CollectionTable<O, A> {

    /** The key column. Its name cannot collide with a field column, which never starts with an underscore. */
    static final String KEY = "_key";
    private static final String METADATA = "quackjvm_collections";

    private final Database db;
    private final String name;
    private final String table;
    private final String stage;
    private final SimpleAttribute<O, A> primaryKey;
    private final KeyType<A> keyType;
    private final ObjectTable<O> layout;
    private final String layoutName;
    private final int appenderThreshold;
    private final int stagingChunkRows;
    private final RequestScopes scopes = new RequestScopes(this);

    private final String columns;
    private final String insertIgnore;
    private final String selectByKey;
    private final String updateByKey;
    private final String deleteByKey;

    public CollectionTable(Database db, String name, SimpleAttribute<O, A> primaryKey, ObjectTable<O> layout,
                           String layoutName, int appenderThreshold, int stagingChunkRows) {
        this.db = db;
        this.name = name;
        this.table = quote(name);
        this.stage = quote("quackjvm_stage_" + name);
        this.primaryKey = primaryKey;
        this.keyType = KeyType.of(primaryKey.getAttributeType());
        this.layout = layout;
        this.layoutName = layoutName;
        this.appenderThreshold = appenderThreshold;
        this.stagingChunkRows = stagingChunkRows;
        StringJoiner cols = new StringJoiner(", ");
        StringJoiner params = new StringJoiner(", ");
        StringJoiner sets = new StringJoiner(", ");
        for (Column c : layout.columns()) {
            cols.add(quote(c.name()));
            params.add("?");
            sets.add(quote(c.name()) + " = ?");
        }
        this.columns = cols.toString();
        this.insertIgnore = "INSERT OR IGNORE INTO " + table + " (" + KEY + ", " + columns + ") VALUES (?, " + params + ")";
        this.selectByKey = "SELECT " + columns + " FROM " + table + " WHERE " + KEY + " = ?";
        this.updateByKey = "UPDATE " + table + " SET " + sets + " WHERE " + KEY + " = ?";
        this.deleteByKey = "DELETE FROM " + table + " WHERE " + KEY + " = ?";
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    public String name() {
        return name;
    }

    public Database database() {
        return db;
    }

    public SimpleAttribute<O, A> primaryKey() {
        return primaryKey;
    }

    /** The quoted table name, for SQL. */
    public String sqlName() {
        return table;
    }

    /** The comma-separated quoted value columns, for SQL. */
    public String sqlColumns() {
        return columns;
    }

    RequestScopes scopes() {
        return scopes;
    }

    // ---------------------------------------------------------------- set-up

    /** Creates the table, or checks that the one found in the file fits this collection. */
    public void create() {
        String action = "Creating collection '" + name + "' in the " + db.describe();
        try (PooledConnection c = db.borrow(); Statement s = c.connection().createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + METADATA + " (name VARCHAR PRIMARY KEY, object_class VARCHAR, "
                    + "key_type VARCHAR, layout VARCHAR)");
            String[] found = null;
            try (PreparedStatement p = c.connection().prepareStatement(
                    "SELECT object_class, key_type, layout FROM " + METADATA + " WHERE name = ?")) {
                p.setString(1, name);
                try (ResultSet rs = p.executeQuery()) {
                    if (rs.next()) {
                        found = new String[]{rs.getString(1), rs.getString(2), rs.getString(3)};
                    }
                }
            }
            String objectClass = primaryKey.getObjectType().getName();
            if (found == null) {
                StringJoiner ddl = new StringJoiner(", ", "CREATE TABLE " + table + " (", ")");
                ddl.add(KEY + " " + keyType.sqlType + " PRIMARY KEY");
                for (Column col : layout.columns()) {
                    ddl.add(quote(col.name()) + " " + col.sqlType());
                }
                s.execute(ddl.toString());
                try (PreparedStatement p = c.connection().prepareStatement("INSERT INTO " + METADATA + " VALUES (?, ?, ?, ?)")) {
                    p.setString(1, name);
                    p.setString(2, objectClass);
                    p.setString(3, keyType.sqlType);
                    p.setString(4, layoutName);
                    p.executeUpdate();
                }
                return;
            }
            List<String> problems = new ArrayList<>();
            if (!found[0].equals(objectClass)) {
                problems.add("it holds " + found[0] + ", not " + objectClass);
            }
            if (!found[1].equals(keyType.sqlType)) {
                problems.add("its primary key is " + found[1] + ", not " + keyType.sqlType);
            }
            if (!found[2].equals(layoutName)) {
                problems.add("it was stored with the '" + found[2] + "' layout, not '" + layoutName + "'");
            }
            if (!problems.isEmpty()) {
                throw new QuackException("Collection '" + name + "' in the " + db.describe() + " does not fit: "
                        + String.join("; ", problems) + ".");
            }
            List<Column> existing = new ArrayList<>();
            try (PreparedStatement p = c.connection().prepareStatement("SELECT column_name, data_type FROM "
                    + "information_schema.columns WHERE table_name = ? AND column_name <> ? ORDER BY ordinal_position")) {
                p.setString(1, name);
                p.setString(2, KEY);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        existing.add(new Column(rs.getString(1), rs.getString(2)));
                    }
                }
            }
            List<Column> added;
            try {
                added = layout.reconcile(existing);
            } catch (IllegalStateException e) {
                throw new QuackException("Collection '" + name + "' in the " + db.describe() + " does not fit class "
                        + objectClass + ": " + e.getMessage(), e);
            }
            for (Column col : added) {
                s.execute("ALTER TABLE " + table + " ADD COLUMN " + quote(col.name()) + " " + col.sqlType());
            }
        } catch (SQLException e) {
            throw QuackException.wrap(action, null, e);
        }
    }

    // ---------------------------------------------------------------- requests

    public void openRequest(QueryOptions options) {
        scopes.open(options);
    }

    public void closeRequest(QueryOptions options) {
        scopes.close(options);
    }

    @FunctionalInterface
    interface Work<T> {
        T run(PooledConnection connection) throws SQLException;
    }

    /** Runs a write in the request's transaction (or a transaction of its own outside a request). */
    <T> T write(QueryOptions options, String action, Work<T> work) {
        RequestScope scope = scopes.current(options);
        QueryOptions own = null;
        if (scope == null) {
            own = new QueryOptions();
            scopes.open(own);
            scope = scopes.current(own);
        }
        try {
            return work.run(scope.writeConnection());
        } catch (SQLException e) {
            scope.fail();
            throw QuackException.wrap(action + " on collection '" + name + "'", null, e);
        } catch (RuntimeException | Error e) {
            scope.fail();
            throw e;
        } finally {
            if (own != null) {
                scopes.close(own);
            }
        }
    }

    /** Runs a read on the request's transaction if it has written, else on a connection of its own. */
    <T> T read(QueryOptions options, String action, Work<T> work) {
        db.checkOpen();
        RequestScope scope = scopes.current(options);
        PooledConnection active = scope == null ? null : scope.activeWrite();
        try {
            if (active != null) {
                return work.run(active);
            }
            try (PooledConnection c = db.borrow()) {
                return work.run(c);
            }
        } catch (SQLException e) {
            if (scope != null && active != null) {
                scope.fail();
            }
            throw QuackException.wrap(action + " on collection '" + name + "'", null, e);
        }
    }

    /**
     * Opens a cursor over the objects of {@code SELECT columns FROM table <tail>}. Outside a write transaction it
     * streams on a connection of its own; inside one the rows are read at once, because a later statement on
     * the same connection would cut a streaming result short.
     */
    public CloseableIterator<O> objects(QueryOptions options, String tail, List<?> params, boolean large) {
        db.checkOpen();
        String sql = "SELECT " + columns + " FROM " + table + (tail.isEmpty() ? "" : " " + tail);
        RequestScope scope = scopes.current(options);
        PooledConnection active = scope == null ? null : scope.activeWrite();
        if (active != null) {
            List<O> all = read(options, "Querying", c -> readAll(c, sql, params, large));
            return new ListCursor<>(all);
        }
        PooledConnection c = db.borrow();
        PreparedStatement ps = null;
        ResultSet rs = null;
        try {
            ps = c.prepare(sql);
            bind(ps, params);
            rs = ps.executeQuery();
            RowCursor rows = db.reader(large).open(rs);
            ObjectCursor<O> cursor = new ObjectCursor<>(c, true, ps, rs, rows, layout);
            if (scope != null) {
                scope.register(cursor);
            }
            return cursor;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(rs);
            if (ps != null) {
                c.recycle(ps);
            }
            c.close();
            throw e instanceof SQLException ? QuackException.wrap("Querying collection '" + name + "'", sql,
                    (SQLException) e) : (RuntimeException) e;
        }
    }

    private List<O> readAll(PooledConnection c, String sql, List<?> params, boolean large) throws SQLException {
        PreparedStatement ps = c.prepare(sql);
        try {
            bind(ps, params);
            List<O> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery(); RowCursor rows = db.reader(large).open(rs)) {
                while (rows.next()) {
                    out.add(layout.read(rows.row()));
                }
            }
            return out;
        } finally {
            c.recycle(ps);
        }
    }

    /** Runs {@code sql} (one row, one long column) and returns the value. */
    public long queryLong(QueryOptions options, String sql, List<?> params) {
        return read(options, "Counting", c -> {
            PreparedStatement ps = c.prepare(sql);
            try {
                bind(ps, params);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getLong(1) : 0L;
                }
            } finally {
                c.recycle(ps);
            }
        });
    }

    /** Runs {@code sql} and returns its first column as keys, in result order. */
    public List<A> queryKeys(QueryOptions options, String sql, List<?> params) {
        return read(options, "Reading keys", c -> {
            PreparedStatement ps = c.prepare(sql);
            try {
                bind(ps, params);
                List<A> keys = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        keys.add(keyType.read(rs, 1));
                    }
                }
                return keys;
            } finally {
                c.recycle(ps);
            }
        });
    }

    @SuppressWarnings("unchecked")
    private void bind(PreparedStatement ps, List<?> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            Object p = params.get(i);
            if (p != null && keyType.javaType.isInstance(p)) {
                keyType.bind(ps, i + 1, (A) p);
            } else {
                ps.setObject(i + 1, p);
            }
        }
    }

    // ---------------------------------------------------------------- reads

    public int size(QueryOptions options) {
        return (int) Math.min(Integer.MAX_VALUE, queryLong(options, "SELECT count(*) FROM " + table, List.of()));
    }

    public boolean isEmpty(QueryOptions options) {
        return queryLong(options, "SELECT count(*) FROM (SELECT 1 FROM " + table + " LIMIT 1)", List.of()) == 0;
    }

    /** The stored object with this key, or {@code null}. */
    public O get(A key, QueryOptions options) {
        if (key == null) {
            return null;
        }
        return read(options, "Looking up a key", c -> find(c, key));
    }

    private O find(PooledConnection c, A key) throws SQLException {
        PreparedStatement ps = c.prepare(selectByKey);
        try {
            keyType.bind(ps, 1, key);
            try (ResultSet rs = ps.executeQuery(); RowCursor rows = db.reader(false).open(rs)) {
                return rows.next() ? layout.read(rows.row()) : null;
            }
        } finally {
            c.recycle(ps);
        }
    }

    /** Set semantics, as on the heap: the stored object with this key must be {@code equals} to {@code o}. */
    public boolean contains(Object o, QueryOptions options) {
        A key = keyOrNull(o);
        if (key == null) {
            return false;
        }
        O stored = get(key, options);
        return stored != null && stored.equals(o);
    }

    @SuppressWarnings("unchecked")
    private A keyOrNull(Object o) {
        if (o == null || !primaryKey.getObjectType().isInstance(o)) {
            return null;
        }
        return primaryKey.getValue((O) o, null);
    }

    A keyOf(O object) {
        if (object == null) {
            throw new NullPointerException("Cannot add a null object to collection '" + name + "'");
        }
        A key = primaryKey.getValue(object, null);
        if (key == null) {
            throw new IllegalArgumentException("Null primary key: attribute '" + primaryKey.getAttributeName()
                    + "' of " + object + " is null; every object stored in collection '" + name + "' needs a key");
        }
        return key;
    }

    // ---------------------------------------------------------------- writes

    /**
     * Adds objects, replacing a stored object with the same key unless it is equal. Returns whether anything
     * changed. Small batches go through prepared statements, large ones through DuckDB's Appender.
     */
    public boolean addAll(Collection<? extends O> objects, QueryOptions options) {
        if (objects.isEmpty()) {
            return false;
        }
        Map<A, O> byKey = new LinkedHashMap<>();
        for (O o : objects) {
            byKey.put(keyOf(o), o);
        }
        return write(options, "Adding " + byKey.size() + " objects", c -> byKey.size() <= appenderThreshold
                ? addSmall(c, byKey) : addLarge(c, byKey));
    }

    private boolean addSmall(PooledConnection c, Map<A, O> byKey) throws SQLException {
        boolean modified = false;
        for (Map.Entry<A, O> e : byKey.entrySet()) {
            PreparedStatement insert = c.prepare(insertIgnore);
            int inserted;
            try {
                keyType.bind(insert, 1, e.getKey());
                layout.write(e.getValue(), new Writers.StatementRow(insert, 2));
                inserted = insert.executeUpdate();
            } finally {
                c.recycle(insert);
            }
            if (inserted > 0) {
                modified = true;
                continue;
            }
            O stored = find(c, e.getKey());
            if (e.getValue().equals(stored)) {
                continue;
            }
            PreparedStatement update = c.prepare(updateByKey);
            try {
                Writers.StatementRow row = new Writers.StatementRow(update, 1);
                layout.write(e.getValue(), row);
                keyType.bind(update, row.next(), e.getKey());
                update.executeUpdate();
            } finally {
                c.recycle(update);
            }
            modified = true;
        }
        return modified;
    }

    private boolean addLarge(PooledConnection c, Map<A, O> byKey) throws SQLException {
        if (!tableEmpty(c)) {
            // Keys already stored: equal objects are left alone, the others are replaced (deleted, then appended).
            List<A> replaced = new ArrayList<>();
            forStoredObjects(c, byKey.keySet(), (key, stored) -> {
                if (stored.equals(byKey.get(key))) {
                    byKey.remove(key);
                } else {
                    replaced.add(key);
                }
            });
            deleteKeys(c, replaced);
        }
        if (byKey.isEmpty()) {
            return false;
        }
        DuckDBConnection duck = c.connection().unwrap(DuckDBConnection.class);
        try (DuckDBAppender appender = duck.createAppender(DuckDBConnection.DEFAULT_SCHEMA, name)) {
            Writers.AppenderRow row = new Writers.AppenderRow(appender);
            int inChunk = 0;
            for (Map.Entry<A, O> e : byKey.entrySet()) {
                appender.beginRow();
                keyType.write(row, e.getKey());
                layout.write(e.getValue(), row);
                appender.endRow();
                if (++inChunk == stagingChunkRows) {
                    appender.flush();
                    inChunk = 0;
                }
            }
        }
        verifyTransaction(c);
        return true;
    }

    /**
     * DuckDB's Appender reports some failures (a duplicate key) only by aborting the transaction, after which a
     * commit silently applies nothing; a statement run now turns that into an exception.
     */
    private static void verifyTransaction(PooledConnection c) throws SQLException {
        try (Statement s = c.connection().createStatement()) {
            s.execute("SELECT 1");
        }
    }

    private boolean tableEmpty(PooledConnection c) throws SQLException {
        try (Statement s = c.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT 1 FROM " + table + " LIMIT 1)")) {
            rs.next();
            return rs.getLong(1) == 0;
        }
    }

    interface StoredObjectVisitor<A, O> {
        void visit(A key, O stored);
    }

    /** Calls {@code visitor} for every stored object whose key is in {@code keys}, in one join. */
    private void forStoredObjects(PooledConnection c, Collection<A> keys, StoredObjectVisitor<A, O> visitor)
            throws SQLException {
        stageKeys(c, keys);
        String sql = "SELECT " + qualified("t") + ", t." + KEY + " FROM " + table + " t JOIN " + stage
                + " s ON t." + KEY + " = s." + KEY;
        int keyColumn = layout.columns().size();
        List<A> foundKeys = new ArrayList<>();
        List<O> foundObjects = new ArrayList<>();
        try (Statement s = c.connection().createStatement(); ResultSet rs = s.executeQuery(sql);
             RowCursor rows = db.reader(false).open(rs)) {
            while (rows.next()) {
                foundObjects.add(layout.read(rows.row()));
                foundKeys.add(keyType.read(rows.row(), keyColumn));
            }
        }
        for (int i = 0; i < foundKeys.size(); i++) {
            visitor.visit(foundKeys.get(i), foundObjects.get(i));
        }
    }

    private String qualified(String alias) {
        StringJoiner j = new StringJoiner(", ");
        for (Column col : layout.columns()) {
            j.add(alias + "." + quote(col.name()));
        }
        return j.toString();
    }

    /** Fills this connection's temporary staging table with {@code keys}. */
    private void stageKeys(PooledConnection c, Collection<A> keys) throws SQLException {
        Connection connection = c.connection();
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TEMP TABLE IF NOT EXISTS " + stage + " (" + KEY + " " + keyType.sqlType + ")");
            s.execute("DELETE FROM " + stage);
        }
        try (DuckDBAppender appender = connection.unwrap(DuckDBConnection.class)
                .createAppender("temp", DuckDBConnection.DEFAULT_SCHEMA, "quackjvm_stage_" + name)) {
            Writers.AppenderRow row = new Writers.AppenderRow(appender);
            for (A key : keys) {
                appender.beginRow();
                keyType.write(row, key);
                appender.endRow();
            }
        }
    }

    private void deleteKeys(PooledConnection c, List<A> keys) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        if (keys.size() <= appenderThreshold) {
            PreparedStatement delete = c.prepare(deleteByKey);
            try {
                for (A key : keys) {
                    keyType.bind(delete, 1, key);
                    delete.executeUpdate();
                }
            } finally {
                c.recycle(delete);
            }
            return;
        }
        stageKeys(c, keys);
        try (Statement s = c.connection().createStatement()) {
            s.executeUpdate("DELETE FROM " + table + " WHERE " + KEY + " IN (SELECT " + KEY + " FROM " + stage + ")");
        }
    }

    /**
     * Removes objects that are stored: an object whose key is stored but which is not {@code equals} to the stored
     * one is left alone, as an on-heap collection would.
     */
    public boolean removeAll(Collection<?> objects, QueryOptions options) {
        Map<A, Object> byKey = new LinkedHashMap<>();
        for (Object o : objects) {
            A key = keyOrNull(o);
            if (key != null) {
                byKey.put(key, o);
            }
        }
        if (byKey.isEmpty()) {
            return false;
        }
        return write(options, "Removing " + byKey.size() + " objects", c -> {
            List<A> doomed = new ArrayList<>();
            if (byKey.size() <= appenderThreshold) {
                for (Map.Entry<A, Object> e : byKey.entrySet()) {
                    O stored = find(c, e.getKey());
                    if (stored != null && stored.equals(e.getValue())) {
                        doomed.add(e.getKey());
                    }
                }
            } else {
                forStoredObjects(c, byKey.keySet(), (key, stored) -> {
                    if (stored.equals(byKey.get(key))) {
                        doomed.add(key);
                    }
                });
            }
            deleteKeys(c, doomed);
            return !doomed.isEmpty();
        });
    }

    public void clear(QueryOptions options) {
        write(options, "Clearing", c -> {
            try (Statement s = c.connection().createStatement()) {
                s.executeUpdate("DELETE FROM " + table);
            }
            return null;
        });
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // already failing
            }
        }
    }

    /** Iterates a list already read; used for reads inside a write transaction. */
    static final class ListCursor<O> implements CloseableIterator<O> {
        private final java.util.Iterator<O> it;

        ListCursor(List<O> list) {
            this.it = list.iterator();
        }

        @Override public boolean hasNext() { return it.hasNext(); }
        @Override public O next() { return it.next(); }
        @Override public void close() { }
    }
}
