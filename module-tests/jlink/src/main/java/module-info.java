/**
 * The application linked into the runtime images by {@code RuntimeImageTests}. It requires only the api: the
 * providers come into the image through {@code --bind-services} or an explicit {@code --add-modules}.
 */
module io.quackjvm.moduletests.jlink {
    requires io.quackjvm.api;

    // the blob layout's Kryo reflects into Gear
    opens io.quackjvm.moduletests.jlink;

    uses io.quackjvm.api.spi.ObjectLayoutProvider;
    uses io.quackjvm.api.spi.ResultReaderProvider;
    uses io.quackjvm.api.spi.ConnectionPoolProvider;
    uses io.quackjvm.api.spi.WritePolicyProvider;
}
