/**
 * Answers computed by DuckDB rather than by iterating objects: typed aggregates, joins, the SQL views and
 * decoding macros that {@code database.query} runs against, and the guard that keeps untrusted SQL away from the
 * host.
 *
 * <p>Not exported: part of the engine behind the {@code io.quackjvm.api} façade. Engine classes depend on the
 * exported value types, exceptions and SPI, never on the façade classes.
 */
package io.quackjvm.api.internal.answer;
