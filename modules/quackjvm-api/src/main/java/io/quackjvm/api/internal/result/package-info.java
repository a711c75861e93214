/**
 * Results and cursors: CQEngine result sets answered by SQL statements, and the cursors that stream objects
 * out of them while holding a connection.
 *
 * <p>Not exported: part of the engine behind the {@code io.quackjvm.api} façade. Engine classes depend on the
 * exported value types, exceptions and SPI, never on the façade classes.
 */
package io.quackjvm.api.internal.result;
