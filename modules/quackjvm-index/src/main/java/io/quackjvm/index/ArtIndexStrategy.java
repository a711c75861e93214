package io.quackjvm.index;

import io.quackjvm.api.spi.IndexStrategyProvider;
import io.quackjvm.api.spi.IndexTableDefinition;

import java.util.List;

/**
 * The {@code "art"} strategy: the two-column table plus a DuckDB ART index on the value column. It helps a highly
 * selective equality lookup into a large table and costs several times the table's size, so it is opt-in.
 * Thread-safe (stateless).
 */
public final class ArtIndexStrategy implements IndexStrategyProvider {

    @Override
    public String name() {
        return "art";
    }

    @Override
    public List<String> create(IndexTableDefinition table) {
        return List.of(table.createTableStatement(), createIndex(table));
    }

    /** Rewriting the table drops its ART index (DuckDB drops a table's indexes with it), so it is created again. */
    @Override
    public List<String> optimize(IndexTableDefinition table) {
        return List.of(table.rewriteSortedStatement(), createIndex(table));
    }

    /** Ahead of a scanned table's equality lookup: the ART finds a value without scanning the column. */
    @Override
    public int pointRetrievalCost() {
        return 58;
    }

    private static String createIndex(IndexTableDefinition table) {
        return "CREATE INDEX " + table.quotedValueIndex() + " ON " + table.quotedTable() + " ("
                + IndexTableDefinition.VALUE_COLUMN + ")";
    }
}
