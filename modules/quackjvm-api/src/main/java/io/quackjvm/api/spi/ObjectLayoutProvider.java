package io.quackjvm.api.spi;

/**
 * Creates {@link ObjectTable}s: the physical layout of a collection's objects.
 *
 * <p>Shipped providers: {@code "blob"} (one serialised object per row, the default) and {@code "columnar"}
 * (one typed column per field). A provider must have a public no-argument constructor to be found by
 * {@link java.util.ServiceLoader}.
 */
public interface ObjectLayoutProvider extends Provider {

    /**
     * Creates the object table for one collection.
     *
     * @param objectType the class of the stored objects
     * @param layout     the layout description given to the builder (a {@link ColumnarDescription} for
     *                   {@code columnarLayout(...)}), or {@code null} when the user chose none; a provider that does
     *                   not understand it throws {@link IllegalArgumentException}
     * @throws IllegalArgumentException when objects of this class or this description cannot be stored by this
     *                                  layout; the message must name the class, the field and the reason
     */
    <O> ObjectTable<O> createTable(Class<O> objectType, LayoutDescription layout);

    /**
     * Creates the object table for one collection whose user allowed more classes to be read from its rows
     * ({@code allowClasses}, {@code allowPackages} on the builders). The engine always calls this method; the
     * default ignores {@code allowed} and calls {@link #createTable(Class, LayoutDescription)}, which is right for a
     * layout that never instantiates a class named by a row.
     *
     * @param allowed the classes and packages the user allowed, {@link AllowedClasses#NONE} when none
     */
    default <O> ObjectTable<O> createTable(Class<O> objectType, LayoutDescription layout, AllowedClasses allowed) {
        return createTable(objectType, layout);
    }
}
