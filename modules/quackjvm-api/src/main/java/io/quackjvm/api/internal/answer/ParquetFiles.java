package io.quackjvm.api.internal.answer;

import io.quackjvm.api.internal.collection.CollectionSchema;
import io.quackjvm.api.internal.collection.CollectionStatements;
import io.quackjvm.api.internal.collection.CollectionTable;
import io.quackjvm.api.internal.database.Database;
import io.quackjvm.api.internal.database.DatabaseFiles;
import io.quackjvm.api.internal.database.Failures;
import io.quackjvm.api.internal.query.QuerySql;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.Query;
import com.googlecode.cqengine.query.option.QueryOptions;
import io.quackjvm.api.ExportSummary;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.PooledConnection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A collection's rows in Parquet files ({@link ParquetImport} reads them back).
 *
 * <p><b>Export</b> is one {@code COPY (SELECT ...) TO} statement, so it reads one snapshot of the collection while
 * writers go on: the columns of the collection's SQL view ({@link SqlViews#exportSql}: the key, the typed fields,
 * the indexed attributes), restricted by a {@code where} query translated as retrievals are, optionally with the
 * whole object as {@code _object} (and, in each file's metadata, the layout's record of how those bytes are encoded),
 * written hive-style under {@code attr=value/} directories when partitioned. The
 * files are written into a temporary directory beside the target and moved there once complete, so a failed
 * export leaves nothing at the target.
 */
public final class ParquetFiles {

    private static final AtomicLong NEXT = new AtomicLong();
    /**
     * The key, in each file's key-value metadata, of the layout's record of how the {@code _object} bytes are
     * encoded ({@link io.quackjvm.api.spi.ObjectTable#encoding}).
     */
    static final String ENCODING_KEY = "quackjvm_encoding";

    private ParquetFiles() {
    }

    /**
     * Writes the rows of {@code table} that match every one of {@code wheres} into Parquet files under {@code dir}.
     *
     * @throws QuackException before anything is written, naming the problem: a target that is a file or a
     *                        non-empty directory, a missing parent directory, a query SQL cannot answer, a partition
     *                        attribute SQL cannot see or that is not a single value, objects asked of a layout that
     *                        does not keep them whole
     */
    public static <O> ExportSummary export(CollectionTable<O, ?> table, SqlViews views, List<Query<O>> wheres,
                                           List<Attribute<O, ?>> partitions, boolean objects, Path dir) {
        table.checkOpen();
        Path target = dir.toAbsolutePath().normalize();
        checkTarget(table, target);
        if (objects && !SqlViews.objectsInOneBlob(table)) {
            throw new QuackException("includeObjects(true) on collection '" + table.name() + "': its layout keeps "
                    + "no whole object to export; its objects are rebuilt from the typed columns the export "
                    + "writes, so leave includeObjects off");
        }
        StringBuilder where = new StringBuilder();
        List<Object> params = new ArrayList<>();
        for (Query<O> q : wheres) {
            QuerySql.Translation<O> t = QuerySql.translate(table, q, new QueryOptions());
            if (!t.complete()) {
                throw new QuackException("export(" + table.name() + ").where(" + q + ") cannot be answered in SQL: "
                        + t.untranslatable());
            }
            where.append(where.length() == 0 ? " WHERE " : " AND ").append("o.").append(CollectionSchema.KEY)
                    .append(" IN (").append(t.keysSql()).append(')');
            params.addAll(t.params());
        }
        Database db = table.database();
        String select = views.exportSql(table, objects, where.toString());
        Path partial = target.resolveSibling("." + target.getFileName() + ".partial-"
                + ProcessHandle.current().pid() + "-" + NEXT.incrementAndGet());
        boolean moved = false;
        String sql = null;
        try (PooledConnection c = db.borrow()) {
            views.ensureMacros(c);
            Map<String, String> columns = describe(c, select, params);
            List<String> partitionColumns = new ArrayList<>();
            for (Attribute<O, ?> a : partitions) {
                partitionColumns.add(partitionColumn(table, a, columns));
            }
            Files.createDirectories(partial);
            String to = partitionColumns.isEmpty() ? partial.resolve("data_0.parquet").toString() : partial.toString();
            StringBuilder copy = new StringBuilder("COPY (").append(select).append(") TO ").append(literal(to))
                    .append(" (FORMAT PARQUET");
            if (!partitionColumns.isEmpty()) {
                copy.append(", PARTITION_BY (").append(String.join(", ", partitionColumns)).append(')');
            }
            String encoding = objects ? table.columns().encoding() : null;
            if (encoding != null) {
                // the rows' bytes are as stored: a collection elsewhere reads them with this record, not its own
                copy.append(", KV_METADATA {").append(ENCODING_KEY).append(": ").append(literal(encoding)).append('}');
            }
            sql = copy.append(')').toString();
            long rows = run(db, c, sql, params);
            move(partial, target);
            moved = true;
            return summarize(target, rows);
        } catch (SQLException e) {
            QuackException closed = db.running().cancelledByClose("The export", e);
            throw closed != null ? closed : Failures.wrap("Exporting collection '" + table.name() + "' to " + target,
                    sql, e);
        } catch (IOException e) {
            throw new QuackException("Exporting collection '" + table.name() + "' to " + target + " failed: " + e
                    + "; nothing was kept there. Check the directory's permissions and free space", e);
        } finally {
            if (!moved) {
                deleteTree(partial);
            }
        }
    }

    private static void checkTarget(CollectionTable<?, ?> table, Path target) {
        String what = "Cannot export collection '" + table.name() + "' to " + target + ": ";
        if (Files.isRegularFile(target)) {
            throw new QuackException(what + "it is a file. An export writes a directory of Parquet files; name a "
                    + "directory that does not exist or is empty");
        }
        if (Files.isDirectory(target)) {
            try (Stream<Path> in = Files.list(target)) {
                if (in.findAny().isPresent()) {
                    throw new QuackException(what + "the directory is not empty. An export never mixes its files "
                            + "with others; name a new or empty directory, or delete what is in it");
                }
            } catch (IOException e) {
                throw new QuackException(what + e, e);
            }
        }
        Path parent = target.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new QuackException(what + "its parent directory " + parent + " does not exist; create it first");
        }
    }

    /** The column of the export that holds {@code a}, checked to be a single value that a directory can name. */
    private static String partitionColumn(CollectionTable<?, ?> table, Attribute<?, ?> a, Map<String, String> columns) {
        String name = a.getAttributeName();
        String type = columns.get(name.toLowerCase(Locale.ROOT));
        if (type == null) {
            throw new QuackException("partitionBy(" + name + ") on collection '" + table.name() + "': SQL cannot see "
                    + "attribute '" + name + "' (the export holds " + columns.keySet() + "). Add a DuckDBIndex on it, "
                    + "or use a layout that declares it as a column");
        }
        String upper = type.toUpperCase(Locale.ROOT);
        if (upper.endsWith("]") || upper.startsWith("STRUCT") || upper.startsWith("MAP") || upper.equals("BLOB")) {
            throw new QuackException("partitionBy(" + name + ") on collection '" + table.name() + "': the attribute "
                    + "holds " + type + " values, and a partition directory names one plain value; partition by an "
                    + "attribute with one value per object");
        }
        return CollectionSchema.quote(name);
    }

    /** The names (lower case) and DuckDB types of the columns {@code select} returns, without running it. */
    static Map<String, String> describe(PooledConnection c, String select, List<Object> params)
            throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.connection().prepareStatement("DESCRIBE " + select)) {
            CollectionStatements.bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2));
                }
            }
        }
        return out;
    }

    private static long run(Database db, PooledConnection c, String sql, List<Object> params) throws SQLException {
        try (PreparedStatement ps = c.connection().prepareStatement(sql)) {
            CollectionStatements.bind(ps, params);
            // not bounded by the query timeout (an export is as long as its data); closing the database cancels it
            try (io.quackjvm.api.internal.database.Statements.Run run = db.statements().start(ps,
                    io.quackjvm.api.Operation.EXPORT, null, sql, null, null)) {
                long rows;
                if (ps.execute()) {
                    try (ResultSet rs = ps.getResultSet()) {
                        rows = rs.next() ? rs.getLong(1) : 0;
                    }
                } else {
                    rows = ps.getUpdateCount();
                }
                run.rows(rows);
                run.succeeded();
                return rows;
            }
        }
    }

    private static ExportSummary summarize(Path dir, long rows) throws IOException {
        int files = 0;
        long bytes = 0;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (Files.isRegularFile(p)) {
                    files++;
                    bytes += Files.size(p);
                }
            }
        }
        return new ExportSummary(rows, files, bytes);
    }

    private static void move(Path from, Path to) throws IOException {
        if (Files.isDirectory(to)) {
            Files.delete(to); // checked empty before the export began
        }
        DatabaseFiles.moveIntoPlace(from, to);
    }

    private static void deleteTree(Path dir) {
        try {
            DatabaseFiles.deleteTree(dir);
        } catch (IOException | UncheckedIOException ignored) {
            // a leftover temporary directory, under a name no export is ever made to
        }
    }

    static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
