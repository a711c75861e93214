package io.quackjvm.storage.blob;

import com.googlecode.cqengine.persistence.support.serialization.PojoSerializer;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;

import java.sql.SQLException;
import java.util.List;

/** One object per row, serialised into the {@code object} column. */
final class BlobObjectTable<O> implements ObjectTable<O> {

    private static final List<Column> COLUMNS = List.of(new Column("object", "BLOB"));

    private final Class<O> objectType;
    private final PojoSerializer<O> serializer;

    BlobObjectTable(Class<O> objectType, PojoSerializer<O> serializer) {
        this.objectType = objectType;
        this.serializer = serializer;
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public void write(O object, RowWriter row) throws SQLException {
        byte[] bytes;
        try {
            bytes = serializer.serialize(object);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Cannot serialise " + object.getClass().getName() + " object " + object
                    + " for the blob layout: " + e.getMessage() + ". Give the class a serializer with "
                    + "@PersistenceConfig(serializer = ...), or make its fields serialisable.", e);
        }
        row.putBytes(bytes);
    }

    @Override
    public O read(RowSource row) throws SQLException {
        byte[] bytes = row.getBytes(0);
        try {
            return serializer.deserialize(bytes);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot deserialise a stored " + objectType.getName() + ": "
                    + e.getMessage() + ". Was the class changed incompatibly since it was stored?", e);
        }
    }
}
