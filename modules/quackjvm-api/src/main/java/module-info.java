/**
 * quackjvm's user API, its provider SPI, and the engine that composes providers.
 *
 * @uses io.quackjvm.api.spi.ObjectLayoutProvider
 * @uses io.quackjvm.api.spi.ResultReaderProvider
 * @uses io.quackjvm.api.spi.ConnectionPoolProvider
 * @uses io.quackjvm.api.spi.WritePolicyProvider
 * @uses io.quackjvm.api.spi.IndexStrategyProvider
 */
module io.quackjvm.api {
    requires transitive cqengine;
    requires transitive java.sql;
    requires duckdb.jdbc;
    requires org.slf4j;
    requires com.github.benmanes.caffeine;
    // optional: a statement's JFR event is recorded only where jdk.jfr is in the module graph
    requires static jdk.jfr;

    exports io.quackjvm.api;
    exports io.quackjvm.api.spi;

    uses io.quackjvm.api.spi.ObjectLayoutProvider;
    uses io.quackjvm.api.spi.ResultReaderProvider;
    uses io.quackjvm.api.spi.ConnectionPoolProvider;
    uses io.quackjvm.api.spi.WritePolicyProvider;
    uses io.quackjvm.api.spi.IndexStrategyProvider;
}
