package io.quackjvm.api.spi;

import java.sql.SQLException;
import java.util.List;

/**
 * How objects of one class become rows of one DuckDB table and back again.
 *
 * <p>The engine owns the key column (the primary key) and creates the table; an object table describes
 * only the columns that hold the object itself. Implementations must be thread-safe: {@link #write} and
 * {@link #read} are called from many request threads at once.
 *
 * @param <O> the type of the stored objects
 */
public interface ObjectTable<O> {

    /** The columns that hold an object, in the order {@link #write} fills them and {@link #read} reads them. */
    List<Column> columns();

    /**
     * Writes one object as one row. Called before anything is stored, so an exception here (an object
     * that cannot be serialised, a value of the wrong type) leaves the collection unchanged.
     */
    void write(O object, RowWriter row) throws SQLException;

    /**
     * Rebuilds one object from a row whose columns are {@link #columns()} in order.
     *
     * @throws IllegalStateException when the stored row cannot be turned into an object (bytes that do not decode,
     *                               a class that may not be built); the message names the class and the fix, and
     *                               the engine passes it on as a {@code StoredDataException} naming the collection.
     *                               {@link #readLookup} and {@link #readCopy} fail the same way
     */
    O read(RowSource row) throws SQLException;

    /**
     * The columns a lookup of one object by its key selects, a subset of {@link #columns()}; {@link #readLookup}
     * rebuilds the object from them. The default selects every column. A layout that keeps a copy of the whole row
     * in one column returns that column alone, since DuckDB's cost of fetching one row grows with the number of
     * columns fetched.
     */
    default List<Column> lookupColumns() {
        return columns();
    }

    /** Rebuilds one object from a row whose columns are {@link #lookupColumns()} in order. */
    default O readLookup(RowSource row) throws SQLException {
        return read(row);
    }

    /**
     * The columns of the copy of an object that a covering index table carries next to each indexed value, so
     * that a range on that value builds its objects from the index table alone. The default copies every column
     * ({@link #columns()}, written by {@link #write} and read by {@link #read}). A layout of many columns may
     * return one column holding the whole row instead: DuckDB's cost of fetching a row grows with the number of
     * its columns, and a covering index is chosen for the speed of its narrow ranges. The engine stores them under
     * prefixed names, so they never clash with its own columns.
     */
    default List<Column> copyColumns() {
        return columns();
    }

    /** Writes the {@link #copyColumns()} of one object, in order (the default: {@link #write}). */
    default void writeCopy(O object, RowWriter row) throws SQLException {
        write(object, row);
    }

    /** Rebuilds one object from a row whose columns are {@link #copyColumns()} in order. */
    default O readCopy(RowSource row) throws SQLException {
        return read(row);
    }

    /**
     * Checks a table found in an existing database file against this layout and returns the columns to add
     * (for example a field the class gained). Throws an {@link IllegalStateException} naming every difference
     * that cannot be reconciled. The default accepts the table if its columns have exactly the names and types of
     * {@link #columns()} (the existing columns carry no compression: it is not part of a column's type).
     *
     * <p>Called once, before any row is written or read. Afterwards {@link #columns()} must list the table's
     * columns in the file's order followed by the returned ones (the engine adds those at the end, and DuckDB's
     * Appender fills columns by position), so an implementation may reorder its columns here.
     *
     * @param existing the value columns of the table in the file, without the key column
     */
    default List<Column> reconcile(List<Column> existing) {
        List<Column> expected = namesAndTypes(columns());
        if (!namesAndTypes(existing).equals(expected)) {
            throw new IllegalStateException("The table has columns " + existing + " but this layout expects "
                    + expected);
        }
        return List.of();
    }

    /**
     * As {@link #reconcile(List)}, told whether the file may be written. The engine calls this one. A layout that
     * keeps bookkeeping columns of its own (columns {@link #sqlValue} says hold no field) may go without one the
     * table lacks when the file is read-only, instead of returning it to be added, which a read-only file refuses.
     * The default calls {@link #reconcile(List)}.
     *
     * @param writable whether the engine may add columns to the table and fill them
     */
    default List<Column> reconcile(List<Column> existing, boolean writable) {
        return reconcile(existing);
    }

    /**
     * Statements that give the rows already stored their values of columns that {@link #reconcile} returned, run
     * right after the engine added them, in the same transaction (so a failure leaves the table as it was). The
     * default runs none: added columns hold NULL in the rows already stored.
     *
     * @param table the quoted name of the object table
     * @param added the columns just added, as {@link #reconcile} returned them
     */
    default List<String> fillAddedColumns(String table, List<Column> added) {
        return List.of();
    }

    /**
     * The columns that hold an attribute's values as they are, so that queries, aggregates, joins and SQL on that
     * attribute read the column rather than rebuild objects in Java ({@link AttributeColumn} says what a
     * declaration promises). Each names one of {@link #columns()} as the table now has them (after
     * {@link #reconcile}). The default declares none: every query on the objects' fields is answered in Java, and
     * SQL sees them only through a {@code DuckDBIndex}.
     */
    default List<AttributeColumn> attributeColumns() {
        return List.of();
    }

    /**
     * The SQL expression of the value that {@code column} holds for the object in a row of the table, as SQL should
     * see it (the SQL views of {@code database.query}, the typed aggregates, conditions on the row), or
     * {@code null} when the column holds no field of the object (bookkeeping: a row copy, a record of values
     * DuckDB's type does not keep). A layout whose stored value differs from the object's (DuckDB's FLOAT and
     * DOUBLE columns may lose the sign of a zero, which the layout records elsewhere) returns the expression that
     * restores it. The default: the column itself.
     *
     * @param column    one of {@link #columns()}
     * @param qualifier prefixed to every column name the expression reads: a table alias and a dot ({@code "o."}),
     *                  or empty
     */
    default String sqlValue(Column column, String qualifier) {
        return qualifier + '"' + column.name() + '"';
    }

    /**
     * Rebuilds one object from a row that holds, in the order of {@link #columns()}, the value {@link #sqlValue}
     * gives for each column it does not return {@code null} for: the columns an export to Parquet writes, read back
     * by a bulk writer's {@code addParquet}. The default reads the row with {@link #read}, which is right for a layout
     * whose every column holds a field as it is; a layout with bookkeeping columns, or whose stored values differ
     * from the object's, overrides it.
     */
    default O readValues(RowSource row) throws SQLException {
        return read(row);
    }

    /**
     * Reconciles the layout's own record of how it encodes objects with the record kept in the file, for a layout
     * whose encoding depends on the shape of the class (its fields) rather than on the table's columns alone. The
     * engine keeps the returned text next to the collection in the file's metadata and hands it back here the next
     * time the collection is opened. Called once, after {@link #reconcile}, before any row is written or read.
     *
     * <p>A layout that can read rows written for an earlier shape of the class (a field added or removed) returns
     * a record that covers both shapes; one that cannot throws here, so that the user learns it when the
     * collection is opened rather than on some later read. The default keeps no record.
     *
     * @param stored  the text this method returned when the collection was last opened for writing, or
     *                {@code null} when the collection is new or its file was written before the layout kept one
     * @param created whether the table was created just now (it holds no rows)
     * @return the text to keep, or {@code null} to keep none; the engine writes it when the file is writable and
     * the text differs from {@code stored}
     * @throws IllegalStateException naming the class, the field and the fix when rows already stored cannot be
     *                               read by this layout
     */
    default String reconcileEncoding(String stored, boolean created) {
        return null;
    }

    /**
     * The record of the encoding this layout reads and writes rows with now: the text {@link #reconcileEncoding}
     * last returned. An export to Parquet that includes whole objects carries it in the files' metadata, so that a
     * collection in another database can read the rows ({@link #readingEncoding}). The default keeps none.
     *
     * @return the record, or {@code null} for a layout that keeps none
     */
    default String encoding() {
        return null;
    }

    /**
     * This layout, reading rows written under another collection's record of its encoding: the
     * {@link #encoding()} of the collection that exported them to Parquet, carried in the files' metadata. The
     * returned table reads with that record and writes as this one does. A layout that keeps no record reads the
     * rows as it reads its own; the default also accepts a record equal to its own, and refuses any other.
     *
     * @param encoding the record the files carry, or {@code null} when they carry none (their layout keeps none,
     *                 or an earlier release wrote them)
     * @throws IllegalStateException naming the class, the field and the fix, when rows written under
     *                               {@code encoding} cannot be read by this layout
     */
    default ObjectTable<O> readingEncoding(String encoding) {
        if (encoding == null || encoding.equals(encoding())) {
            return this;
        }
        throw new IllegalStateException("the rows were written under a record of the layout's encoding that this "
                + "layout does not read; import them into a collection of the layout that exported them");
    }

    private static List<Column> namesAndTypes(List<Column> columns) {
        return columns.stream().map(c -> new Column(c.name(), c.sqlType())).toList();
    }
}
