package io.quackjvm.index;

import io.quackjvm.api.spi.IndexStrategyProvider;
import io.quackjvm.api.spi.IndexTableDefinition;

import java.util.List;

/**
 * The {@code "scan"} strategy: the two-column table and nothing else. DuckDB scans its compressed columns, which
 * for a million rows takes a couple of milliseconds, and after {@code optimize()} its zone maps skip the blocks
 * a selective query cannot match. Thread-safe (stateless).
 */
public final class ScanIndexStrategy implements IndexStrategyProvider {

    @Override
    public String name() {
        return "scan";
    }

    @Override
    public List<String> create(IndexTableDefinition table) {
        return List.of(table.createTableStatement());
    }

    @Override
    public List<String> optimize(IndexTableDefinition table) {
        return List.of(table.rewriteSortedStatement());
    }
}
