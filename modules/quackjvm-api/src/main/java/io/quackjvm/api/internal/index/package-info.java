/**
 * Indexes: the DuckDB index tables behind a {@code DuckDBIndex} ({@link io.quackjvm.api.internal.index.IndexTable}),
 * the primary-key index CQEngine sees, and the statistics that order the parts of a query.
 *
 * <p>Not exported: part of the engine behind the {@code io.quackjvm.api} façade. Engine classes depend on the
 * exported value types, exceptions and SPI, never on the façade classes.
 */
package io.quackjvm.api.internal.index;
