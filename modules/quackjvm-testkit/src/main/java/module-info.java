/**
 * The provider test kit: abstract JUnit Jupiter contract tests that a provider author extends, one per SPI type,
 * each running the provider against a real in-memory DuckDB database.
 *
 * <p>The package is open because JUnit invokes the inherited test methods reflectively.
 *
 * @uses io.quackjvm.api.spi.ObjectLayoutProvider
 * @uses io.quackjvm.api.spi.ResultReaderProvider
 * @uses io.quackjvm.api.spi.ConnectionPoolProvider
 * @uses io.quackjvm.api.spi.WritePolicyProvider
 * @uses io.quackjvm.api.spi.IndexStrategyProvider
 */
module io.quackjvm.testkit {
    requires transitive io.quackjvm.api;
    requires transitive org.junit.jupiter.api;
    requires transitive org.junit.jupiter.params;

    exports io.quackjvm.testkit;
    opens io.quackjvm.testkit;

    uses io.quackjvm.api.spi.ObjectLayoutProvider;
    uses io.quackjvm.api.spi.ResultReaderProvider;
    uses io.quackjvm.api.spi.ConnectionPoolProvider;
    uses io.quackjvm.api.spi.WritePolicyProvider;
    uses io.quackjvm.api.spi.IndexStrategyProvider;
}
