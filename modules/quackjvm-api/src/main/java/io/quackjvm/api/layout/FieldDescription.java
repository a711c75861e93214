package io.quackjvm.api.layout;

import io.quackjvm.api.spi.ColumnarDescription;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@link ColumnarDescription} built by {@link Descriptions}: the fields' getters, the factory (absent for a
 * reflective description of a class without a no-argument constructor) and, for a reflective description, the
 * fields to set. Immutable and thread-safe.
 *
 * @param <O> the type of the described objects
 */
public final class FieldDescription<O> implements ColumnarDescription<O> {
    private final Class<O> objectType;
    /** RECORD, REFLECTIVE or EXPLICIT: how the description was made, for messages. */
    private final String kind;
    private final List<Field<O>> fields;
    private final Function<Object[], O> factory;
    /** For a reflective description: the fields to set, in {@link #fields} order; {@code null} otherwise. */
    private final List<java.lang.reflect.Field> setters;
    private final boolean rowCopy;

    FieldDescription(Class<O> objectType, String kind, List<Field<O>> fields,
                     Function<Object[], O> factory, List<java.lang.reflect.Field> setters) {
        this.objectType = objectType;
        this.kind = kind;
        this.fields = List.copyOf(fields);
        this.factory = factory;
        this.setters = setters == null ? null : List.copyOf(setters);
        this.rowCopy = false;
        Set<String> seen = new HashSet<>();
        for (Field<O> f : this.fields) {
            // DuckDB column names are case-insensitive: "price" and "Price" would be one column.
            if (!seen.add(f.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(objectType.getName() + " has two fields named '" + f.name()
                        + "' (DuckDB column names ignore case); rename one or use ColumnarLayout.builder");
            }
        }
    }

    private FieldDescription(FieldDescription<O> base, boolean rowCopy) {
        this.objectType = base.objectType;
        this.kind = base.kind;
        this.fields = base.fields;
        this.factory = base.factory;
        this.setters = base.setters;
        this.rowCopy = rowCopy;
    }

    /** This description with a copy of each whole row kept in one more column ({@link #rowCopy()}). */
    public FieldDescription<O> withRowCopy() {
        return new FieldDescription<>(this, true);
    }

    @Override
    public boolean rowCopy() {
        return rowCopy;
    }

    @Override
    public Class<O> objectType() {
        return objectType;
    }

    @Override
    public List<Field<O>> fields() {
        return fields;
    }

    @Override
    public boolean canConstruct() {
        return factory != null;
    }

    @Override
    public O newObject(Object[] values) {
        if (factory == null) {
            throw new IllegalStateException(objectType.getName() + " has no no-argument constructor; allocate "
                    + "the object and call fill");
        }
        return factory.apply(values);
    }

    @Override
    public void fill(O object, Object[] values) {
        if (setters == null) {
            throw new IllegalStateException("Only reflective layouts are filled field by field");
        }
        Descriptions.fill(setters, object, values);
    }

    @Override
    public String toString() {
        return "ColumnarDescription{" + kind + ' ' + objectType.getName() + ", " + fields + '}';
    }
}
