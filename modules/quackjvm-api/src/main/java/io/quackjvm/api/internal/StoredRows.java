package io.quackjvm.api.internal;

import io.quackjvm.api.StoredDataException;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;

import java.sql.SQLException;
import java.util.List;

/**
 * A collection's layout as the engine uses it: every call goes to the layout, and a stored row the layout cannot
 * read ({@link IllegalStateException}, as {@link ObjectTable#read} documents) becomes a {@link StoredDataException}
 * naming the collection, wherever the row is read. Thread-safe as the layout is.
 */
final class StoredRows<O> implements ObjectTable<O> {

    private final String collection;
    private final ObjectTable<O> layout;

    StoredRows(String collection, ObjectTable<O> layout) {
        this.collection = collection;
        this.layout = layout;
    }

    private StoredDataException unreadable(IllegalStateException e) {
        return new StoredDataException("Collection '" + collection + "': " + e.getMessage(), e);
    }

    @Override
    public O read(RowSource row) throws SQLException {
        try {
            return layout.read(row);
        } catch (IllegalStateException e) {
            throw unreadable(e);
        }
    }

    @Override
    public O readLookup(RowSource row) throws SQLException {
        try {
            return layout.readLookup(row);
        } catch (IllegalStateException e) {
            throw unreadable(e);
        }
    }

    @Override
    public O readCopy(RowSource row) throws SQLException {
        try {
            return layout.readCopy(row);
        } catch (IllegalStateException e) {
            throw unreadable(e);
        }
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
    public String reconcileEncoding(String stored, boolean created) {
        return layout.reconcileEncoding(stored, created);
    }
}
