/**
 * quackjvm with its default providers: requiring this module brings the API, the blob layout, the JDBC
 * reader, the duplicating connection pool, the per-collection write policy and the scan and ART index
 * strategies into the module graph.
 */
module io.quackjvm {
    requires transitive io.quackjvm.api;
    requires io.quackjvm.storage;
    requires io.quackjvm.reader.jdbc;
    requires io.quackjvm.concurrency;
    requires io.quackjvm.index;
}
