package io.quackjvm.api.internal.database;

import io.quackjvm.api.internal.answer.SqlViews;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.index.IndexTable;

import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.spi.PooledConnection;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The readable catalog of a database's collections that {@code DuckDBDatabase.describe()} returns: for each
 * collection its name, layout, row count, the columns of its object table with their DuckDB types, and its
 * attribute indexes with their strategies; then the size of the database.
 */
public final class Catalog {

    private Catalog() {
    }

    /** Describes {@code tables}, all of {@code db}. */
    public static String describe(Database db, List<CollectionTable<?, ?>> tables) {
        return describe(db, tables, null);
    }

    /** Describes {@code tables}, all of {@code db}, with the relation {@code views} show SQL for each. */
    public static String describe(Database db, List<CollectionTable<?, ?>> tables, SqlViews views) {
        db.checkOpen();
        StringBuilder out = new StringBuilder(db.describe()).append(", ").append(tables.size())
                .append(tables.size() == 1 ? " collection" : " collections").append('\n');
        try (PooledConnection c = db.borrow()) {
            if (views != null) {
                views.refresh(c, tables);
            }
            for (CollectionTable<?, ?> table : tables) {
                describe(c, table, out);
                if (views != null) {
                    out.append("  sql ").append(table.name()).append(": ").append(views.describe(c, table))
                            .append('\n');
                }
            }
        } catch (SQLException e) {
            throw Failures.wrap("Describing the " + db.describe(), null, e);
        }
        out.append("size: ").append(db.bytesUsed()).append(" bytes").append(db.isInMemory() ? " (in memory)" : "")
                .append('\n');
        return out.toString();
    }

    private static void describe(PooledConnection c, CollectionTable<?, ?> table, StringBuilder out)
            throws SQLException {
        out.append("collection ").append(table.name())
                .append(" (").append(table.schema().primaryKey().getObjectType().getName()).append(", key ")
                .append(table.schema().primaryKey().getAttributeName()).append(' ')
                .append(table.schema().primaryKey().getAttributeType().getSimpleName()).append(", layout ")
                .append(table.schema().layoutName()).append(", ").append(table.reads().size(new QueryOptions())).append(" rows)\n");
        out.append("  table ").append(table.name()).append(":");
        try (PreparedStatement p = c.connection().prepareStatement("SELECT column_name, data_type FROM duckdb_columns() "
                + "WHERE database_name = current_database() AND schema_name = current_schema() AND table_name = ? "
                + "ORDER BY column_index")) {
            p.setString(1, table.name());
            try (ResultSet rs = p.executeQuery()) {
                String sep = " ";
                while (rs.next()) {
                    out.append(sep).append(rs.getString(1)).append(' ').append(rs.getString(2));
                    sep = ", ";
                }
            }
        }
        out.append('\n');
        for (IndexTable<?, ?> index : table.indexes().all()) {
            out.append("  index on ").append(index.attribute().getAttributeName()).append(" (")
                    .append(index.singleValued() ? "single-valued" : "multi-valued").append(", strategy ")
                    .append(index.strategy().name()).append(", table ").append(index.name()).append(")\n");
        }
    }
}
