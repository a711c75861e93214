/**
 * The database and its connections: opening a DuckDB instance or a catalog of the shared in-memory engine
 * ({@link io.quackjvm.api.internal.database.Database}), its settings and their validation, the files, locks and spill
 * directories it owns, provider discovery, the connection pool and write locks it lends, the resources it must
 * release on close, and the one classification of DuckDB's failures ({@link io.quackjvm.api.internal.database.Failures}).
 *
 * <p>Not exported: part of the engine behind the {@code io.quackjvm.api} façade. Engine classes depend on the
 * exported value types, exceptions and SPI, never on the façade classes.
 */
package io.quackjvm.api.internal.database;
