package io.quackjvm.api.internal.collection;

import io.quackjvm.api.internal.database.Database;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.StoredDataException;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.PooledConnection;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The shape of one collection's object table and its row in the file's metadata: the table and key names, the
 * key type, the layout and the SQL fragments that name the layout's columns. It creates the table, or checks
 * that a table found in a file fits (class, key type, layout) and reconciles the layout's columns with it. It
 * runs no reads or writes of objects and knows nothing of index tables or transactions: its SQL text is read by
 * the classes that do. Thread-safe.
 */
public final class CollectionSchema<O, A> {

    /** The key column. Its name cannot collide with a field column, which never starts with an underscore. */
    public static final String KEY = "_key";
    private static final String METADATA = "quackjvm_collections";
    private static final String ENCODING = "encoding";

    final Database db;
    final String name;
    /** The quoted table name. */
    final String table;
    final SimpleAttribute<O, A> primaryKey;
    /** How keys are stored: every key bound in SQL is {@code keyType.encode(key)}. */
    final KeyType<A> keyType;
    final StoredRows<O> layout;
    final String layoutName;

    /** The SQL view of the table's columns and the layout's declarations of them. */
    final CollectionColumns<O> columns;

    public CollectionSchema(Database db, String name, SimpleAttribute<O, A> primaryKey, ObjectTable<O> layout,
                     String layoutName) {
        this.db = db;
        this.name = name;
        this.table = quote(name);
        this.primaryKey = primaryKey;
        this.keyType = KeyType.of(primaryKey.getAttributeType());
        this.layout = new StoredRows<>(name, layout, keyType);
        this.layoutName = layoutName;
        this.columns = new CollectionColumns<>(name, table, this.layout, layoutName);
    }

    /** The collection's name, which is its table's name. */
    public String name() {
        return name;
    }

    /** The quoted table name, for SQL. */
    public String sqlName() {
        return table;
    }

    public SimpleAttribute<O, A> primaryKey() {
        return primaryKey;
    }

    /** How keys are stored: every key bound in SQL is {@code keyType().encode(key)}. */
    public KeyType<A> keyType() {
        return keyType;
    }

    /** The name of the object layout provider that stores the objects. */
    public String layoutName() {
        return layoutName;
    }


    public static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** The key of an object to be stored; fails naming the object when it or its key is null. */
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

    /** The key of {@code o} when it is an object of this collection, else {@code null}. */
    @SuppressWarnings("unchecked")
    A keyOrNull(Object o) {
        if (o == null || !primaryKey.getObjectType().isInstance(o)) {
            return null;
        }
        return primaryKey.getValue((O) o, null);
    }

    static boolean tableExists(PooledConnection c, String table) throws SQLException {
        return exists(c, "tables", "table_name = ?", table);
    }

    /** Whether {@code information_schema.<view>} of this database and schema has a row where {@code condition}. */
    private static boolean exists(PooledConnection c, String view, String condition, String... params) throws SQLException {
        try (PreparedStatement p = c.connection().prepareStatement("SELECT count(*) FROM information_schema." + view
                + " WHERE table_catalog = current_database() AND table_schema = current_schema() AND " + condition)) {
            for (int i = 0; i < params.length; i++) {
                p.setString(i + 1, params[i]);
            }
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }

    /** Creates the metadata table when the file may be written, or checks that a read-only file holds one. */
    void ensureMetadata(PooledConnection c) throws SQLException {
        if (db.readOnly()) {
            if (!tableExists(c, METADATA)) {
                throw new QuackException("The " + db.describe() + " holds no quackjvm collections, and it is "
                        + "opened read-only, so collection '" + name + "' cannot be created in it. Check the path, "
                        + "or open it without access_mode=READ_ONLY to create the collection.");
            }
            return;
        }
        try (Statement s = c.connection().createStatement()) {
            s.execute(METADATA_DDL);
            // The layout's record of its encoding (ObjectTable.reconcileEncoding): files written before have no column.
            // An in-memory database was created by this version, with the column.
            if (!db.isInMemory() && !hasEncodingColumn(c)) {
                s.execute("ALTER TABLE " + METADATA + " ADD COLUMN IF NOT EXISTS " + ENCODING + " VARCHAR");
            }
        }
    }

    /** The metadata table: one row per collection. */
    private static final String METADATA_DDL = "CREATE TABLE IF NOT EXISTS " + METADATA + " (name VARCHAR PRIMARY KEY, "
            + "object_class VARCHAR, key_type VARCHAR, layout VARCHAR, " + ENCODING + " VARCHAR)";

    /** The metadata tables' statements, for {@link io.quackjvm.api.internal.database.DatabaseCollections#ensureMetadata}. */
    static List<String> metadataDdl() {
        return List.of(METADATA_DDL, CollectionIndexes.METADATA_DDL);
    }

    /**
     * Creates the first collection of a new in-memory database: its table alone. The metadata tables are created
     * when first needed (a second collection in the database, {@link io.quackjvm.api.internal.database.DatabaseCollections#ensureMetadata}), with this
     * collection's row ({@link #metadataRow()}); an index creates the index metadata itself. A new in-memory
     * database holds nothing to look up, and nothing but this process writes it. Creating the two metadata
     * tables and the row was most of the cost of opening a small in-memory collection. The table is created on the
     * database's root connection ({@link Database#executeOnRoot}), so no pooled connection is lent for it.
     */
    void createFirstInMemory() throws SQLException {
        String row = metadataRow();
        db.executeOnRoot(createTableSql());
        db.collections().metadataPending(metadataDdl(), row);
    }

    /** The INSERT of this collection's metadata row, values written as literals. */
    private String metadataRow() {
        String encoding = reconcileEncoding(null, true);
        return "INSERT INTO " + METADATA + " (name, object_class, key_type, layout, " + ENCODING + ") VALUES ("
                + literal(name) + ", " + literal(primaryKey.getObjectType().getName()) + ", "
                + literal(keyType.signature()) + ", " + literal(layoutName) + ", " + literal(encoding) + ")";
    }

    private static String literal(String value) {
        return value == null ? "NULL" : "'" + value.replace("'", "''") + "'";
    }

    private String createTableSql() {
        StringJoiner ddl = new StringJoiner(", ", "CREATE TABLE " + table + " (", ")");
        ddl.add(KEY + " " + keyType.sqlType + " PRIMARY KEY");
        for (Column col : layout.columns()) {
            ddl.add(quote(col.name()) + " " + col.sqlType()
                    + (col.compression() == null ? "" : " USING COMPRESSION " + col.compression()));
        }
        return ddl.toString();
    }

    /** Creates the table and its metadata row, or checks that the table found in the file fits this collection. */
    void createOrReconcile(PooledConnection c) throws SQLException {
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
        if (found == null) {
            create(c);
        } else {
            reconcile(c, found);
        }
    }

    private void create(PooledConnection c) throws SQLException {
        db.checkWritable("Creating collection '" + name + "'");
        try (Statement s = c.connection().createStatement()) {
            s.execute(createTableSql());
        }
        String encoding = reconcileEncoding(null, true);
        try (PreparedStatement p = c.connection().prepareStatement("INSERT INTO " + METADATA
                + " (name, object_class, key_type, layout, " + ENCODING + ") VALUES (?, ?, ?, ?, ?)")) {
            p.setString(1, name);
            p.setString(2, primaryKey.getObjectType().getName());
            p.setString(3, keyType.signature());
            p.setString(4, layoutName);
            p.setString(5, encoding);
            p.executeUpdate();
        }
    }

    /** The layout's answer to {@link ObjectTable#reconcileEncoding}, its refusal as a {@link QuackException}. */
    private String reconcileEncoding(String stored, boolean created) {
        try {
            return layout.reconcileEncoding(stored, created);
        } catch (IllegalStateException e) {
            throw new StoredDataException("Collection '" + name + "' in the " + db.describe() + " cannot be opened "
                    + "with class " + primaryKey.getObjectType().getName() + ": " + e.getMessage(), e);
        }
    }

    private static boolean hasEncodingColumn(PooledConnection c) throws SQLException {
        return exists(c, "columns", "table_name = ? AND column_name = ?", METADATA, ENCODING);
    }

    /** The encoding record kept for this collection, or {@code null} (none kept, or a file from before the column). */
    private String storedEncoding(PooledConnection c) throws SQLException {
        if (!hasEncodingColumn(c)) {
            return null;
        }
        try (PreparedStatement p = c.connection().prepareStatement(
                "SELECT " + ENCODING + " FROM " + METADATA + " WHERE name = ?")) {
            p.setString(1, name);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Adds the columns the layout asked for and fills them ({@link ObjectTable#fillAddedColumns}), in one transaction. */
    private void addColumns(PooledConnection c, List<Column> added) throws SQLException {
        c.begin();
        try (Statement s = c.connection().createStatement()) {
            for (Column col : added) {
                s.execute("ALTER TABLE " + table + " ADD COLUMN " + quote(col.name()) + " " + col.sqlType());
            }
            for (String fill : layout.fillAddedColumns(table, added)) {
                s.execute(fill);
            }
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
        c.commit();
    }

    private void reconcile(PooledConnection c, String[] found) throws SQLException {
        String objectClass = primaryKey.getObjectType().getName();
        List<String> problems = new ArrayList<>();
        if (!found[0].equals(objectClass)) {
            problems.add("it holds " + found[0] + ", not " + objectClass);
        }
        String keyMismatch = keyType.mismatch(found[1]);
        if (keyMismatch != null) {
            problems.add(keyMismatch);
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
                + "information_schema.columns WHERE table_catalog = current_database() AND table_schema = current_schema() "
                + "AND table_name = ? AND column_name <> ? ORDER BY ordinal_position")) {
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
            added = layout.reconcile(existing, !db.readOnly());
        } catch (IllegalStateException e) {
            throw new QuackException("Collection '" + name + "' in the " + db.describe() + " does not fit class "
                    + objectClass + ": " + e.getMessage(), e);
        }
        if (!added.isEmpty()) {
            db.checkWritable("Adding columns " + added + " to collection '" + name + "'");
        }
        if (!added.isEmpty()) {
            addColumns(c, added);
        }
        columns.refresh();
        String stored = storedEncoding(c);
        String encoding = reconcileEncoding(stored, false);
        if (encoding != null && !encoding.equals(stored) && !db.readOnly()) {
            try (PreparedStatement p = c.connection().prepareStatement(
                    "UPDATE " + METADATA + " SET " + ENCODING + " = ? WHERE name = ?")) {
                p.setString(1, encoding);
                p.setString(2, name);
                p.executeUpdate();
            }
        }
    }
}
