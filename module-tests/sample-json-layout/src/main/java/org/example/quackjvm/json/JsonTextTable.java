package org.example.quackjvm.json;

import io.quackjvm.api.spi.AttributeColumn;
import io.quackjvm.api.spi.Column;
import io.quackjvm.api.spi.ObjectTable;
import io.quackjvm.api.spi.RowSource;
import io.quackjvm.api.spi.RowWriter;
import io.quackjvm.api.spi.ValueType;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code json VARCHAR} column holding the whole record, which {@link #read} rebuilds it from, and after it one
 * typed column per record component, under the component's name, which the table declares as the attribute of
 * that name ({@link #attributeColumns()}) so that queries, aggregates and SQL on a component run in DuckDB. How
 * each is stored decides what DuckDB may compare: strings as text ({@code UTF8_ORDER}), whole numbers and booleans
 * as DuckDB's own types ({@code NATIVE}), doubles and enums in the order-preserving form of
 * {@link ValueType} ({@code ENCODED}: DuckDB's DOUBLE would see -0.0 and 0.0 as one value). Thread-safe: it holds
 * only immutable state.
 */
final class JsonTextTable<O> implements ObjectTable<O> {

    private static final Column JSON = new Column("json", "VARCHAR");

    private final RecordCodec<O> codec;
    private final Class<?>[] types;
    /** Per component: its value type when stored encoded, else {@code null}. */
    private final ValueType<Object>[] encoded;
    private final List<Column> columns;
    private final List<AttributeColumn> declared;

    @SuppressWarnings("unchecked")
    JsonTextTable(RecordCodec<O> codec) {
        this.codec = codec;
        String[] names = codec.names();
        this.types = codec.types();
        this.encoded = new ValueType[names.length];
        List<Column> cols = new ArrayList<>(List.of(JSON));
        List<AttributeColumn> attrs = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equalsIgnoreCase(JSON.name())) {
                throw new IllegalArgumentException("The json-text layout keeps the whole record in a column named '"
                        + JSON.name() + "', so it cannot store a component of that name; rename the component");
            }
            Class<?> boxed = boxed(types[i]);
            AttributeColumn.Comparison comparison;
            String sqlType;
            if (boxed == String.class) {
                comparison = AttributeColumn.Comparison.UTF8_ORDER;
                sqlType = "VARCHAR";
            } else if (boxed == Integer.class || boxed == Long.class || boxed == Boolean.class) {
                comparison = AttributeColumn.Comparison.NATIVE;
                sqlType = boxed == Integer.class ? "INTEGER" : boxed == Long.class ? "BIGINT" : "BOOLEAN";
            } else {
                encoded[i] = (ValueType<Object>) ValueType.of(boxed);
                comparison = AttributeColumn.Comparison.ENCODED;
                sqlType = encoded[i].sqlType();
            }
            Column column = new Column(names[i], sqlType);
            cols.add(column);
            attrs.add(new AttributeColumn(names[i], column, boxed, comparison));
        }
        this.columns = List.copyOf(cols);
        this.declared = List.copyOf(attrs);
    }

    private static Class<?> boxed(Class<?> t) {
        return t == int.class ? Integer.class : t == long.class ? Long.class : t == double.class ? Double.class
                : t == boolean.class ? Boolean.class : t;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public List<AttributeColumn> attributeColumns() {
        return declared;
    }

    @Override
    public void write(O object, RowWriter row) throws SQLException {
        row.putString(codec.toJson(object));
        for (int i = 0; i < types.length; i++) {
            Object v = codec.value(object, i);
            if (v == null) {
                row.putNull();
            } else if (encoded[i] != null) {
                row.putObject(encoded[i].encode(v));
            } else if (v instanceof String s) {
                row.putString(checked(s, i));
            } else if (v instanceof Integer n) {
                row.putInt(n);
            } else if (v instanceof Long n) {
                row.putLong(n);
            } else {
                row.putBoolean((Boolean) v);
            }
        }
    }

    /** A string DuckDB's text compares as Java does: one without an unpaired surrogate. */
    private String checked(String s, int component) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("Component '" + codec.names()[component] + "' holds an unpaired "
                        + "surrogate at index " + i + ", which a DuckDB VARCHAR cannot hold");
            }
        }
        return s;
    }

    @Override
    public O read(RowSource row) throws SQLException {
        return codec.fromJson(row.getString(0));
    }
}
