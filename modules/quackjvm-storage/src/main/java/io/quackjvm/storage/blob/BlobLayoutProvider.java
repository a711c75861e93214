package io.quackjvm.storage.blob;

import io.quackjvm.api.spi.AllowedClasses;
import io.quackjvm.api.spi.LayoutDescription;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.ObjectTable;

/**
 * The {@code "blob"} layout: each object serialised into one BLOB column, with Kryo 5 by default or with the
 * serializer named by CQEngine's {@code @PersistenceConfig(serializer = ...)} on the object class. Stores any
 * class Kryo (or that serializer) can round-trip.
 *
 * <p>With Kryo, a row is read back only into classes on the collection's allow-list (the object class, the
 * declared types of its fields and of theirs, the JDK's value and collection types, and what the user allowed),
 * and rows written before a class gained or lost a field stay readable. A serializer named by
 * {@code @PersistenceConfig} answers for both itself.
 */
public final class BlobLayoutProvider implements ObjectLayoutProvider {

    @Override
    public String name() {
        return "blob";
    }

    @Override
    public <O> ObjectTable<O> createTable(Class<O> objectType, LayoutDescription layout) {
        return createTable(objectType, layout, AllowedClasses.NONE);
    }

    @Override
    public <O> ObjectTable<O> createTable(Class<O> objectType, LayoutDescription layout, AllowedClasses allowed) {
        if (layout != null) {
            throw new IllegalArgumentException("The blob layout takes no layout description, but was given " + layout);
        }
        return new BlobObjectTable<>(objectType, Serializers.forClass(objectType, allowed));
    }
}
