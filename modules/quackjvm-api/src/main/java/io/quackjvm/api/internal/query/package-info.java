/**
 * Query translation: the one resolver of where SQL finds an attribute's values and what it may ask of them
 * ({@link io.quackjvm.api.internal.query.Visible}), and the translation of CQEngine queries into SQL conditions and
 * key sets with Java's semantics ({@link io.quackjvm.api.internal.query.QuerySql}).
 *
 * <p>Not exported: part of the engine behind the {@code io.quackjvm.api} façade. Engine classes depend on the
 * exported value types, exceptions and SPI, never on the façade classes.
 */
package io.quackjvm.api.internal.query;
