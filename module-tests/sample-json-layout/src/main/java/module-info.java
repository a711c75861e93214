/**
 * A sample third-party provider module: the {@code "json-text"} object layout (records stored as one JSON
 * text column) and the {@code "counting"} bulk result reader (JDBC getters, counting the rows it reads).
 *
 * <p>It exports its package so that users can also pass the providers to the builder explicitly.
 */
module org.example.quackjvm.json {
    requires io.quackjvm.api;

    exports org.example.quackjvm.json;

    provides io.quackjvm.api.spi.ObjectLayoutProvider with org.example.quackjvm.json.JsonTextLayoutProvider;
    provides io.quackjvm.api.spi.ResultReaderProvider with org.example.quackjvm.json.CountingReaderProvider;
}
