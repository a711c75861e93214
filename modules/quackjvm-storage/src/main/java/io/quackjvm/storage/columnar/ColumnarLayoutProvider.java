package io.quackjvm.storage.columnar;

import io.quackjvm.api.spi.ColumnarDescription;
import io.quackjvm.api.spi.LayoutDescription;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.ObjectTable;

/**
 * The {@code "columnar"} layout: one typed DuckDB column per field, described by a {@link ColumnarDescription} (the
 * provider's side of a {@code ColumnarLayout}), so that the object table is an ordinary DuckDB table (compressed per
 * column, queryable with plain SQL). Chosen with
 * {@code DuckDBPersistence.builder(pk).columnarLayout(layout)}; the types it stores are listed in
 * {@code docs/columnar.md}.
 */
public final class ColumnarLayoutProvider implements ObjectLayoutProvider {

    @Override
    public String name() {
        return "columnar";
    }

    /**
     * @param layout a {@link ColumnarDescription} of {@code objectType} or a supertype; {@code null} is accepted for
     *               a record class, which is then described by {@link ColumnarDescription#ofRecord}
     */
    @Override
    @SuppressWarnings("unchecked")
    public <O> ObjectTable<O> createTable(Class<O> objectType, LayoutDescription layout) {
        if (layout == null) {
            if (!objectType.isRecord()) {
                throw new IllegalArgumentException("The columnar layout needs a description of " + objectType.getName()
                        + ": use builder.columnarLayout(ColumnarLayout.reflective(" + objectType.getSimpleName()
                        + ".class)) or ColumnarLayout.builder");
            }
            return new ColumnarObjectTable<>(objectType, ColumnarDescription.ofRecord(objectType));
        }
        if (!(layout instanceof ColumnarDescription<?> columnar)) {
            throw new IllegalArgumentException("The columnar layout takes a ColumnarDescription (from a "
                    + "ColumnarLayout), but was given " + layout.getClass().getName());
        }
        if (!columnar.objectType().isAssignableFrom(objectType)) {
            throw new IllegalArgumentException("The ColumnarLayout describes " + columnar.objectType().getName()
                    + ", not " + objectType.getName());
        }
        return new ColumnarObjectTable<>(objectType, (ColumnarDescription<O>) columnar);
    }
}
