/**
 * How objects are read field by field and built again for a columnar layout: the reflection behind
 * {@code ColumnarLayout.ofRecord} and {@code reflective}, the explicit getters of {@code ColumnarLayout.builder},
 * and {@link io.quackjvm.api.spi.ColumnarDescription#ofRecord}.
 *
 * <p>Not exported. It depends on the provider SPI and the JDK only, so that both the user API and the SPI can use
 * it without the SPI depending on the user API. Reflection on users' classes runs here, inside module
 * {@code io.quackjvm.api}: that module is what a user's {@code opens} directive names.
 */
package io.quackjvm.api.layout;
