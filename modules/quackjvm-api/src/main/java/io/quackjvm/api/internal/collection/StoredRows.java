package io.quackjvm.api.internal.collection;

import io.quackjvm.api.QuackException;
import io.quackjvm.api.StoredDataException;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;

import java.sql.SQLException;
import java.util.List;

/**
 * A collection's layout as the engine uses it: every call goes to the layout, and a stored row the layout cannot
 * read (the {@link IllegalStateException} {@link ObjectTable#read} documents, or any other failure of the layout
 * or of a codec it calls) becomes a {@link StoredDataException} naming the collection and, where the engine has
 * it, the row's key, wherever the row is read. Thread-safe as the layout is.
 */
final class StoredRows<O> implements ObjectTable<O> {

    /** One of the layout's ways of reading a row. */
    @FunctionalInterface
    private interface Reading<O> {
        O from(RowSource row) throws SQLException;
    }

    private final String collection;
    private final ObjectTable<O> layout;
    private final KeyType<?> keyType;
    private final Reading<O> read;
    private final Reading<O> readLookup;
    private final Reading<O> readCopy;
    private final Reading<O> readValues;

    StoredRows(String collection, ObjectTable<O> layout, KeyType<?> keyType) {
        this.collection = collection;
        this.layout = layout;
        this.keyType = keyType;
        this.read = layout::read;
        this.readLookup = layout::readLookup;
        this.readCopy = layout::readCopy;
        this.readValues = layout::readValues;
    }

    /** Reads with {@code reading}; a failure names the collection and {@code key} (when not {@code null}). */
    private O guarded(Reading<O> reading, RowSource row, Object key) throws SQLException {
        try {
            return reading.from(row);
        } catch (QuackException e) {
            throw e;
        } catch (RuntimeException e) {
            throw unreadable(e, key);
        }
    }

    private StoredDataException unreadable(RuntimeException e, Object key) {
        // The layout's message; for an unexpected failure (a codec's), its class too.
        String why = e instanceof IllegalStateException ? e.getMessage()
                : "a stored value does not decode (" + e + ")";
        return new StoredDataException("Collection '" + collection + "', " + (key == null
                ? "a row read without its key" : "key " + key) + ": " + why, e);
    }

    @Override
    public O read(RowSource row) throws SQLException {
        return guarded(read, row, null);
    }

    @Override
    public O readLookup(RowSource row) throws SQLException {
        return guarded(readLookup, row, null);
    }

    /** As {@link #readLookup}, for the row of {@code key}. */
    O readLookup(RowSource row, Object key) throws SQLException {
        return guarded(readLookup, row, key);
    }

    /**
     * As {@link #readLookup}, for a row of the {@link #lookupColumns} followed by the key column, which names the
     * row in a failure (read only then).
     */
    O readLookupKeyed(RowSource row) throws SQLException {
        try {
            return layout.readLookup(row);
        } catch (QuackException e) {
            throw e;
        } catch (RuntimeException e) {
            Object key = null;
            try {
                key = keyType.read(row, layout.lookupColumns().size());
            } catch (SQLException | RuntimeException keyUnreadable) {
                e.addSuppressed(keyUnreadable);
            }
            throw unreadable(e, key);
        }
    }

    @Override
    public O readCopy(RowSource row) throws SQLException {
        return guarded(readCopy, row, null);
    }

    @Override
    public O readValues(RowSource row) throws SQLException {
        return guarded(readValues, row, null);
    }

    @Override
    public List<Column> columns() {
        return layout.columns();
    }

    @Override
    public void write(O object, RowWriter row) throws SQLException {
        layout.write(object, row);
    }

    @Override
    public List<Column> lookupColumns() {
        return layout.lookupColumns();
    }

    @Override
    public List<Column> copyColumns() {
        return layout.copyColumns();
    }

    @Override
    public void writeCopy(O object, RowWriter row) throws SQLException {
        layout.writeCopy(object, row);
    }

    @Override
    public List<Column> reconcile(List<Column> existing) {
        return layout.reconcile(existing);
    }

    @Override
    public List<Column> reconcile(List<Column> existing, boolean writable) {
        return layout.reconcile(existing, writable);
    }

    @Override
    public List<String> fillAddedColumns(String table, List<Column> added) {
        return layout.fillAddedColumns(table, added);
    }

    @Override
    public String sqlValue(Column column, String qualifier) {
        return layout.sqlValue(column, qualifier);
    }

    @Override
    public List<io.quackjvm.api.spi.AttributeColumn> attributeColumns() {
        return layout.attributeColumns();
    }

    @Override
    public String reconcileEncoding(String stored, boolean created) {
        return layout.reconcileEncoding(stored, created);
    }

    @Override
    public String encoding() {
        return layout.encoding();
    }

    /** The layout reading rows written under {@code encoding}, its failures named as this one's are. */
    @Override
    public StoredRows<O> readingEncoding(String encoding) {
        ObjectTable<O> reading = layout.readingEncoding(encoding);
        return reading == layout ? this : new StoredRows<>(collection, reading, keyType);
    }
}
