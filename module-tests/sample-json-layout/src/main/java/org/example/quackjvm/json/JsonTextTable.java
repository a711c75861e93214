package org.example.quackjvm.json;

import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;

import java.sql.SQLException;
import java.util.List;

/** One {@code json VARCHAR} column. Thread-safe: it holds only an immutable codec. */
final class JsonTextTable<O> implements ObjectTable<O> {

    private static final List<Column> COLUMNS = List.of(new Column("json", "VARCHAR"));

    private final RecordCodec<O> codec;

    JsonTextTable(RecordCodec<O> codec) {
        this.codec = codec;
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public void write(O object, RowWriter row) throws SQLException {
        row.putString(codec.toJson(object));
    }

    @Override
    public O read(RowSource row) throws SQLException {
        return codec.fromJson(row.getString(0));
    }
}
