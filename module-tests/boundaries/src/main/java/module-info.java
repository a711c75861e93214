/**
 * The module-path test module: a first client of quackjvm's modules under its own name (nothing is patched
 * into ours). Its tests (patched into this module by Surefire) check our module descriptors, provider
 * discovery, the sample third-party provider, and run the provider test kit against our providers.
 *
 * <p>It requires the aggregate {@code io.quackjvm} so that the default providers are resolved on the module
 * path (Surefire puts only the modules this descriptor reaches there). The test kit and JUnit stay on the
 * class path: a JUnit on the module path next to Surefire's launcher on the class path does not start. It is open
 * because the blob layout's Kryo and JUnit both reflect into it.
 */
open module io.quackjvm.moduletests {
    requires io.quackjvm.api;
    requires io.quackjvm;
    requires org.example.quackjvm.json;

    exports io.quackjvm.moduletests.model;

    uses io.quackjvm.api.spi.ObjectLayoutProvider;
    uses io.quackjvm.api.spi.ResultReaderProvider;
    uses io.quackjvm.api.spi.ConnectionPoolProvider;
    uses io.quackjvm.api.spi.WritePolicyProvider;
}
