package io.quackjvm.api;

import io.quackjvm.api.internal.answer.ParquetFiles;
import io.quackjvm.api.internal.answer.SqlViews;
import io.quackjvm.api.internal.collection.CollectionTable;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.query.Query;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes a collection's objects as Parquet files, which DuckDB, Spark, Trino and most engines read. Get one from
 * {@link DuckDBDatabase#export} or {@link DuckDBPersistence#export()}:
 * <pre>{@code
 * ExportSummary written = database.export(cars)
 *         .where(lessThan(Car.PRICE, 30_000.0))
 *         .partitionBy(Car.MANUFACTURER)
 *         .toParquet(Path.of("exports/cheap-cars"));
 * }</pre>
 *
 * <p><b>Columns.</b> The files hold the columns SQL sees of the collection ({@link DuckDBDatabase#describe()}): the
 * primary key under the key attribute's name, every field a columnar layout stores (numbers, text, dates and enums
 * as Parquet's own types, lists and records as Parquet's nested types), and every attribute with a
 * {@code DuckDBIndex} (a multi-valued one as a list). A blob collection's objects themselves are opaque to other
 * engines; {@link #includeObjects(boolean)} adds them as a BLOB column {@code _object}, so that
 * {@link DuckDBBulkWriter#addParquet} can rebuild them.
 *
 * <p><b>Consistency.</b> An export is one DuckDB statement: it holds exactly the objects committed before it
 * started, while readers and writers go on. Its files are written into a temporary directory beside the target and
 * moved there once complete, so a failed export leaves nothing at the target. Partitioned exports write hive-style
 * directories ({@code manufacturer=Ford/data_0.parquet}), which hold the partition values instead of the files.
 *
 * <p>A builder: each call returns a new export, so one may be kept and varied. Thread-safe.
 *
 * @param <O> the type of the stored objects
 */
public final class ParquetExport<O> {

    private final CollectionTable<O, ?> table;
    private final SqlViews views;
    private final List<Query<O>> wheres;
    private final List<Attribute<O, ?>> partitions;
    private final boolean objects;

    ParquetExport(CollectionTable<O, ?> table, SqlViews views) {
        this(table, views, List.of(), List.of(), false);
    }

    private ParquetExport(CollectionTable<O, ?> table, SqlViews views, List<Query<O>> wheres,
                          List<Attribute<O, ?>> partitions, boolean objects) {
        this.table = table;
        this.views = views;
        this.wheres = wheres;
        this.partitions = partitions;
        this.objects = objects;
    }

    /**
     * Exports only the objects that match {@code query} (and every earlier {@code where}), translated to SQL as
     * retrievals are. The query must be answerable in SQL as a whole: conditions on attributes with a
     * {@code DuckDBIndex}, on the primary key, or on the columns a columnar layout declares.
     */
    public ParquetExport<O> where(Query<O> query) {
        Objects.requireNonNull(query, "query");
        List<Query<O>> w = new ArrayList<>(wheres);
        w.add(query);
        return new ParquetExport<>(table, views, List.copyOf(w), partitions, objects);
    }

    /**
     * Writes one directory per value of these attributes, nested in this order ({@code attr=value/}), as Spark,
     * Trino and DuckDB read hive-partitioned data; a filter on them then skips whole directories. Each must be an
     * attribute the export holds, with one value per object.
     */
    @SafeVarargs
    public final ParquetExport<O> partitionBy(Attribute<O, ?>... attributes) {
        List<Attribute<O, ?>> p = new ArrayList<>(partitions);
        for (Attribute<O, ?> a : attributes) {
            p.add(Objects.requireNonNull(a, "attribute"));
        }
        return new ParquetExport<>(table, views, wheres, List.copyOf(p), objects);
    }

    /**
     * Whether to add each object, serialised as the collection stores it, as a BLOB column {@code _object}
     * (default: no). For collections of the blob layout, whose objects cannot be rebuilt from the typed columns;
     * refused for a layout that stores fields as columns.
     */
    public ParquetExport<O> includeObjects(boolean include) {
        return new ParquetExport<>(table, views, wheres, partitions, include);
    }

    /**
     * Writes the export into the directory {@code dir}, which must not exist or be empty (its parent must exist).
     *
     * @return how many rows, files and bytes were written
     * @throws QuackException             before anything is written when {@code dir} is a file or a non-empty
     *                                    directory, its parent does not exist, a {@code where} query cannot be
     *                                    answered in SQL, a partition attribute is not in the export or holds
     *                                    several values, or objects were asked of a layout that stores fields;
     *                                    when writing fails, naming the cause (nothing is kept at {@code dir})
     * @throws PersistenceClosedException when the collection or its database is closed
     */
    public ExportSummary toParquet(Path dir) {
        Objects.requireNonNull(dir, "dir");
        return ParquetFiles.export(table, views, wheres, partitions, objects, dir);
    }
}
