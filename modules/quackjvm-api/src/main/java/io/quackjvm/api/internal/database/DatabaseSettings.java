package io.quackjvm.api.internal.database;

import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicyProvider;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything needed to open one database, validated by the public builders.
 *
 * @param file                 the database file, or {@code null} for an in-memory database
 * @param memoryLimit          DuckDB's memory_limit in a form it accepts, or {@code null} for DuckDB's default
 * @param properties           other DuckDB settings, passed at open
 * @param serializeWrites      whether writers to one collection wait for each other
 * @param maxPooledConnections idle connections kept for reuse
 * @param poolProvider         an explicit pool provider, or {@code null} to discover one
 * @param writePolicyProvider  an explicit write policy provider, or {@code null} to discover one
 * @param readers              explicit result readers, or empty to discover them
 * @param trackUnclosedResults whether to record where each result is opened, for the warning of {@code close()}
 * @param statements           timeouts, the slow-statement log and admission control
 */
public record DatabaseSettings(Path file, String memoryLimit, Map<String, String> properties,
                               boolean serializeWrites, int maxPooledConnections,
                               ConnectionPoolProvider poolProvider, WritePolicyProvider writePolicyProvider,
                               List<ResultReaderProvider> readers, boolean trackUnclosedResults,
                               StatementSettings statements) {
}
