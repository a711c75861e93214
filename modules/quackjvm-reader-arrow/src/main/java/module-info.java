/**
 * The {@code "arrow"} result reader: large results are exported by DuckDB as Arrow batches and read column by
 * column, several times faster than JDBC getters. Usable only when {@code java.nio} is opened to Arrow's memory
 * module; otherwise it reports why and the engine reads through JDBC.
 */
module io.quackjvm.reader.arrow {
    requires io.quackjvm.api;
    requires duckdb.jdbc;
    requires org.apache.arrow.vector;
    requires org.apache.arrow.c;
    requires org.apache.arrow.memory.core;
    requires org.apache.arrow.memory.unsafe;

    provides io.quackjvm.api.spi.ResultReaderProvider with io.quackjvm.reader.arrow.ArrowReaderProvider;
}
