package io.quackjvm.api.spi;

import io.quackjvm.api.layout.Descriptions;

import java.lang.reflect.Type;
import java.util.List;

/**
 * The provider's side of a user's {@code ColumnarLayout}: the fields to store one per column, how to read each from
 * an object, and how to build an object again from one value per field. A user describes a class with
 * {@code ColumnarLayout.ofRecord}, {@code reflective} or {@code builder}; the builder passes the layout's
 * {@code description()} to the layout provider, which needs nothing else from the user API.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <O> the type of the described objects
 */
public interface ColumnarDescription<O> extends LayoutDescription {

    /**
     * A record's components, in declaration order, rebuilt through the canonical constructor: the same description
     * as {@code ColumnarLayout.ofRecord(recordType)}'s, for a layout that stores a record inside one column (as a
     * STRUCT, say).
     *
     * @throws IllegalArgumentException when {@code recordType} is not a record, or its package is not open to
     *                                  {@code io.quackjvm.api}
     */
    static <R> ColumnarDescription<R> ofRecord(Class<R> recordType) {
        return Descriptions.ofRecord(recordType);
    }

    @Override
    Class<O> objectType();

    /** The fields, in column order; never empty for a description built with {@code ColumnarLayout.builder}. */
    List<Field<O>> fields();

    /**
     * Whether {@link #newObject} can build objects by itself; {@code false} only for a reflective description of a
     * class without a no-argument constructor, whose objects the provider allocates (without calling a
     * constructor) and passes to {@link #fill}.
     */
    boolean canConstruct();

    /**
     * Whether the object table also keeps a copy of each whole row in one BLOB column, so that a lookup by key
     * fetches one column instead of one per field ({@code ColumnarLayout.withRowCopy()}). Default {@code false}.
     */
    default boolean rowCopy() {
        return false;
    }

    /**
     * Builds an object from one value per field, in {@link #fields()} order.
     *
     * @throws IllegalStateException when {@link #canConstruct()} is {@code false}, or the constructor or factory
     *                               throws (the cause is kept)
     */
    O newObject(Object[] values);

    /**
     * Sets every field of an allocated object from one value per field, in {@link #fields()} order; for reflective
     * descriptions only.
     *
     * @throws IllegalStateException when the description is not reflective, or a field cannot be set
     */
    void fill(O object, Object[] values);

    /**
     * One stored field: its column name, its Java type (generic, so that {@code List<String>} is known to be a list
     * of strings) and how to read it from an object. Immutable.
     *
     * @param <O> the object type
     */
    interface Field<O> {
        /** The column name: the field's or record component's name. */
        String name();

        /** The field's Java type, with type arguments where it has them. */
        Type type();

        /** The field's value in {@code object}; a reflective read, a record accessor or the builder's getter. */
        Object get(O object);
    }
}
