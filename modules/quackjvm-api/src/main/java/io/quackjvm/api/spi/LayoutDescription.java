package io.quackjvm.api.spi;

/**
 * What a user said about how a collection's objects are laid out, handed to
 * {@link ObjectLayoutProvider#createTable(Class, LayoutDescription)}. The builder passes {@code null} when the user
 * gave no description.
 *
 * <p>The one description quackjvm produces is a {@link ColumnarDescription}, from
 * {@code DuckDBPersistence.Builder#columnarLayout(ColumnarLayout)}. A provider checks which kind it was given and
 * throws {@link IllegalArgumentException} for a kind it does not understand. Implementations are immutable and
 * thread-safe.
 */
public interface LayoutDescription {

    /** The described class; a provider accepts it for a collection of this class or of a subclass. */
    Class<?> objectType();
}
