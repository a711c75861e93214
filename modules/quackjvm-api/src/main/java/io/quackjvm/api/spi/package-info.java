/**
 * The provider SPI: what a third-party module implements to supply its own object layout, result reader,
 * connection pool, write policy or index strategy, and {@link io.quackjvm.api.spi.ValueType}, the rules by
 * which Java values are stored so that DuckDB compares them as Java does.
 *
 * <p>Providers are found with {@link java.util.ServiceLoader} ({@code provides ... with ...} in a module
 * descriptor, or a {@code META-INF/services} file on the class path) and can always be passed to the
 * builders directly instead. Every provider type has a {@code name()}; the builders choose a provider by
 * name, and a missing, duplicated or broken provider fails with a {@link io.quackjvm.api.ProviderException}
 * that lists every candidate found and why each was rejected.
 */
package io.quackjvm.api.spi;
