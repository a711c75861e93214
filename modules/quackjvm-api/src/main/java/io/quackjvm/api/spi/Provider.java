package io.quackjvm.api.spi;

/**
 * What every provider type has in common: a stable name by which a builder can ask for it.
 *
 * <p>Names are lower case, short and unique per provider type ({@code "blob"}, {@code "jdbc"}). Two providers
 * of one type with the same name make a lookup by that name fail as ambiguous.
 */
public interface Provider {

    /** The name a builder uses to select this provider. */
    String name();
}
