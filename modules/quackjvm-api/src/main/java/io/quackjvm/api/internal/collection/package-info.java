/**
 * One collection: its table and schema in the database, how objects become rows and back (through the layout
 * provider), its reads, writes and bulk loads, the keys' stored form, the object cache, the request scopes that
 * give CQEngine's operations their visibility, and the CQEngine types a collection is built from
 * ({@link io.quackjvm.api.internal.collection.DuckDBObjectStore}, {@link io.quackjvm.api.internal.collection.QuackCollection}).
 *
 * <p>Not exported: part of the engine behind the {@code io.quackjvm.api} façade. Engine classes depend on the
 * exported value types, exceptions and SPI, never on the façade classes.
 */
package io.quackjvm.api.internal.collection;
