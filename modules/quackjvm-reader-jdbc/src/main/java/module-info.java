/**
 * Reads query results through JDBC getters. Provides the {@code "jdbc"} reader, always usable, which the
 * engine uses for point lookups and whenever no bulk reader is usable.
 */
module io.quackjvm.reader.jdbc {
    requires io.quackjvm.api;
    requires duckdb.jdbc;

    provides io.quackjvm.api.spi.ResultReaderProvider with io.quackjvm.reader.jdbc.JdbcReaderProvider;
}
