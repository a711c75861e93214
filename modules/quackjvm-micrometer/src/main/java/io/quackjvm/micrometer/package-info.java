/**
 * Micrometer meters for quackjvm databases and collections.
 *
 * <p>{@link io.quackjvm.micrometer.QuackMetrics} is a {@code MeterBinder}: construct it for a database, bind it to a
 * registry, and close it to stop recording. The meters and their tags are listed in docs/operations.md
 * ("Micrometer").
 */
package io.quackjvm.micrometer;
