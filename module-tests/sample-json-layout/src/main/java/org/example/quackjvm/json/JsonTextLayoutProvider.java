package org.example.quackjvm.json;

import io.quackjvm.api.spi.LayoutDescription;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.ObjectTable;

/**
 * The {@code "json-text"} layout: a record is stored as one JSON object in a {@code VARCHAR} column, readable
 * by DuckDB's own JSON functions. Stores records whose components are strings, primitives, their boxes or
 * enums; the record class must be public and exported (or opened) to this module.
 */
public final class JsonTextLayoutProvider implements ObjectLayoutProvider {

    /** The name to pass to {@code DuckDBPersistence.Builder#layout(String)}. */
    public static final String NAME = "json-text";

    /** Used by {@link java.util.ServiceLoader}; also the constructor for passing the layout explicitly. */
    public JsonTextLayoutProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public <O> ObjectTable<O> createTable(Class<O> objectType, LayoutDescription layout) {
        if (layout != null) {
            throw new IllegalArgumentException("The json-text layout takes no layout description, but was given "
                    + layout);
        }
        return new JsonTextTable<>(RecordCodec.of(objectType));
    }
}
