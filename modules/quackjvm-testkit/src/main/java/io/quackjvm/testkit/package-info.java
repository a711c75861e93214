/**
 * Contract tests for quackjvm providers. Extend the class for your provider type, implement its abstract
 * methods, and run it with your other JUnit tests:
 *
 * <ul>
 *   <li>{@link io.quackjvm.testkit.ObjectLayoutContract} for an {@code ObjectLayoutProvider};</li>
 *   <li>{@link io.quackjvm.testkit.ResultReaderContract} for a {@code ResultReaderProvider};</li>
 *   <li>{@link io.quackjvm.testkit.ConnectionPoolContract} for a {@code ConnectionPoolProvider};</li>
 *   <li>{@link io.quackjvm.testkit.WritePolicyContract} for a {@code WritePolicyProvider}.</li>
 * </ul>
 *
 * <p>Every contract extends {@link io.quackjvm.testkit.ProviderContract}, which checks what all providers share
 * (the name). A contract for a new SPI type (for example {@code IndexStrategyProvider}) is one more subclass of
 * it. Each test states, in its name, the rule of the SPI guide ({@code spi-docs/}) it checks.
 */
package io.quackjvm.testkit;
