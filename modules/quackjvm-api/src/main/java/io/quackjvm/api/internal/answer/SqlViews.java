package io.quackjvm.api.internal.answer;

import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.index.IndexTable;

import io.quackjvm.api.spi.AttributeColumn;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.PooledConnection;
import io.quackjvm.api.spi.ValueType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;

/**
 * How SQL sees the collections of one database: one view per collection, named as the collection, in a schema
 * {@code quackjvm_sql} of an in-memory catalog (for a file, of DuckDB's in-memory catalog {@code memory}, so it is
 * never written to the file; for a catalog of the shared engine ({@link SharedEngine}), of that catalog, so that
 * the databases sharing the engine never see each other's views) that the query API puts first on a connection's
 * search path for the time of one query, so that {@code FROM car} finds the view and not
 * the physical table of the same name. A view holds the primary key decoded and named after the key attribute,
 * every typed (non-BLOB) column of the object table that holds a field, under its own name and as the layout says
 * SQL sees it ({@code ObjectTable.sqlValue}: the fields of a columnar collection, zeros with their sign),
 * and every attribute with a {@code DuckDBIndex} that is not already a column: a single-valued one as a column of
 * its natural type, a multi-valued one as a LIST of its values in order. Values are decoded from their stored form
 * by {@link SqlDecode}.
 *
 * <p>The views follow the collections: before each query the shape of every open collection (its columns and
 * attached indexes) is compared with the one the views were built from, and they are rebuilt when it changed.
 * Thread-safe.
 */
public final class SqlViews {

    /** The schema of the views and macros, quoted and qualified with its catalog. */
    private final String schema;
    /** The catalog of {@link #schema}, unquoted. */
    private final String viewCatalog;

    private final Database db;
    private String catalog;
    private String signature;
    private final Set<String> views = new HashSet<>();
    private boolean macros;

    public SqlViews(Database db) {
        this.db = db;
        this.viewCatalog = db.sharesEngine() ? db.catalog() : "memory";
        this.schema = CollectionSchema.quote(viewCatalog) + ".\"quackjvm_sql\"";
    }

    /** The schema of the views and the decoding macros, quoted and qualified with its catalog. */
    public String schema() {
        return schema;
    }

    /** Creates the schema and the decoding macros once. */
    public synchronized void ensureMacros(PooledConnection c) throws SQLException {
        if (macros) {
            return;
        }
        try (Statement s = c.connection().createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
            for (String m : SqlDecode.macros(schema)) {
                s.execute(m);
            }
        }
        macros = true;
    }

    /** The catalog the physical tables are in ({@code quackjvm} for a file, {@code memory} in memory). */
    private synchronized String catalog(PooledConnection c) throws SQLException {
        if (catalog == null) {
            try (Statement s = c.connection().createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT current_database()")) {
                rs.next();
                catalog = rs.getString(1);
            }
        }
        return catalog;
    }

    /** The search path a query runs with: the views first, then the collections' own schema. */
    public String searchPath(PooledConnection c) throws SQLException {
        return viewCatalog + ".quackjvm_sql," + catalog(c) + ".main";
    }

    /** The search path pooled connections have when the query API does not hold them. */
    public String defaultSearchPath(PooledConnection c) throws SQLException {
        return catalog(c).equals("memory") ? "" : catalog(c) + ".main";
    }

    /** Brings the views up to date with {@code tables}, the open collections of the database. */
    public synchronized void refresh(PooledConnection c, List<CollectionTable<?, ?>> tables) throws SQLException {
        ensureMacros(c);
        StringBuilder sig = new StringBuilder();
        for (CollectionTable<?, ?> t : tables) {
            sig.append(t.name()).append('|').append(t.columns().sqlList()).append('|');
            for (IndexTable<?, ?> index : t.indexes().all()) {
                sig.append(index.name()).append(',');
            }
            sig.append(';');
        }
        String now = sig.toString();
        if (now.equals(signature)) {
            return;
        }
        String cat = CollectionSchema.quote(catalog(c));
        Set<String> wanted = new HashSet<>();
        try (Statement s = c.connection().createStatement()) {
            for (CollectionTable<?, ?> t : tables) {
                wanted.add(t.name().toLowerCase(Locale.ROOT));
                s.execute("CREATE OR REPLACE VIEW " + schema + "." + CollectionSchema.quote(t.name()) + " AS "
                        + viewSql(t, cat + ".\"main\"."));
            }
            for (String old : views) {
                if (!wanted.contains(old)) {
                    s.execute("DROP VIEW IF EXISTS " + schema + "." + CollectionSchema.quote(old));
                }
            }
        }
        views.clear();
        views.addAll(wanted);
        signature = now;
    }

    /** The SELECT a collection's view runs; {@code prefix} qualifies physical table names. */
    String viewSql(CollectionTable<?, ?> t, String prefix) {
        return select(t, prefix, false, false, "");
    }

    /**
     * The SELECT of an export to Parquet: the view's columns, and also the BLOB columns that hold a field (not those
     * of a layout that keeps the whole object in one BLOB column), {@code objects}: that column as {@code _object};
     * {@code where} (empty, or a condition on {@code o._key}) restricts the rows.
     */
    public String exportSql(CollectionTable<?, ?> t, boolean objects, String where) {
        String prefix = CollectionSchema.quote(db.catalog()) + ".\"main\".";
        return select(t, prefix, true, objects, where);
    }

    /** Whether the layout of {@code t} keeps each object whole in one BLOB column (the blob layout). */
    public static boolean objectsInOneBlob(CollectionTable<?, ?> t) {
        List<Column> all = t.columns().all();
        return all.size() == 1 && all.get(0).sqlType().equalsIgnoreCase("BLOB");
    }

    private String select(CollectionTable<?, ?> t, String prefix, boolean export, boolean objects, String where) {
        StringJoiner select = new StringJoiner(", ");
        StringBuilder from = new StringBuilder(" FROM " + prefix + t.schema().sqlName() + " o");
        Set<String> names = new HashSet<>();
        List<Column> typed = new ArrayList<>();
        boolean wholeObjects = objectsInOneBlob(t);
        for (Column col : t.columns().valueColumns()) {
            if (!col.sqlType().equalsIgnoreCase("BLOB") || export && !wholeObjects) {
                typed.add(col);
                names.add(col.name().toLowerCase(Locale.ROOT));
            }
        }
        String keyName = t.schema().primaryKey().getAttributeName();
        if (!names.contains(keyName.toLowerCase(Locale.ROOT))) {
            select.add(SqlDecode.expression(t.schema().keyType().valueType(), "o." + CollectionSchema.KEY, schema)
                    + " AS " + CollectionSchema.quote(keyName));
            names.add(keyName.toLowerCase(Locale.ROOT));
        }
        for (Column col : typed) {
            // The value as the object holds it: a layout may restore what the column alone does not keep, and a
            // column declared to hold an attribute's stored form is decoded to its natural SQL value.
            String value = t.columns().sqlValue(col, "o.");
            AttributeColumn declared = t.columns().declarationOf(col);
            // An export keeps big numbers in their exact stored text: SQL's decimals have a fixed precision.
            if (declared != null && declared.comparison() == AttributeColumn.Comparison.ENCODED && !export) {
                value = SqlDecode.expression(ValueType.of(declared.javaType()), value, schema);
            }
            select.add(value + " AS " + CollectionSchema.quote(col.name()));
        }
        int i = 0;
        for (IndexTable<?, ?> index : t.indexes().all()) {
            String attr = index.attribute().getAttributeName();
            if (!names.add(attr.toLowerCase(Locale.ROOT))) {
                continue;
            }
            String alias = "i" + (i++);
            String value = SqlDecode.expression(index.valueType(), alias + ".value", schema);
            if (index.singleValued()) {
                select.add(value + " AS " + CollectionSchema.quote(attr));
                from.append(" LEFT JOIN ").append(prefix).append(index.sqlName()).append(' ').append(alias)
                        .append(" ON ").append(alias).append("._key = o._key");
            } else {
                select.add("coalesce(" + alias + ".v, []) AS " + CollectionSchema.quote(attr));
                from.append(" LEFT JOIN (SELECT ").append(alias).append("._key, list(").append(value)
                        .append(" ORDER BY ").append(alias).append(".value) AS v FROM ").append(prefix)
                        .append(index.sqlName()).append(' ').append(alias).append(" GROUP BY ").append(alias)
                        .append("._key) ").append(alias).append(" ON ").append(alias).append("._key = o._key");
            }
        }
        if (objects) {
            select.add("o." + CollectionSchema.quote(t.columns().all().get(0).name()) + " AS \"_object\"");
        }
        return "SELECT " + select + from + where;
    }

    /** The columns of each view as {@code name TYPE}, for {@code describe()}; refreshes first. */
    public String describe(PooledConnection c, CollectionTable<?, ?> table) throws SQLException {
        StringJoiner out = new StringJoiner(", ");
        try (PreparedStatement p = c.connection().prepareStatement("SELECT column_name, data_type FROM "
                + "duckdb_columns() WHERE database_name = ? AND schema_name = 'quackjvm_sql' AND table_name = ? "
                + "ORDER BY column_index")) {
            p.setString(1, viewCatalog);
            p.setString(2, table.name());
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
        }
        return out.toString();
    }
}
