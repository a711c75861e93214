package io.quackjvm.storage.blob;

import io.quackjvm.api.spi.LayoutDescription;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.ObjectTable;

/**
 * The {@code "blob"} layout: each object serialised into one BLOB column, with Kryo 5 by default or with the
 * serializer named by CQEngine's {@code @PersistenceConfig(serializer = ...)} on the object class. Stores any
 * class Kryo (or that serializer) can round-trip.
 */
public final class BlobLayoutProvider implements ObjectLayoutProvider {

    @Override
    public String name() {
        return "blob";
    }

    @Override
    public <O> ObjectTable<O> createTable(Class<O> objectType, LayoutDescription layout) {
        if (layout != null) {
            throw new IllegalArgumentException("The blob layout takes no layout description, but was given " + layout);
        }
        return new BlobObjectTable<>(objectType, Serializers.forClass(objectType));
    }
}
