package io.quackjvm.api.spi;

import java.util.List;

/**
 * Creates the physical DuckDB structures of an attribute index and says how to reorganise them.
 *
 * <p>The engine owns the rows: it writes one row per (object, attribute value) into the index table in the same
 * transaction as the object, deletes them with the object, and answers queries from the table. A strategy only
 * decides what the table looks like beyond its two columns (for example an extra ART index) and how
 * {@code optimize()} rewrites it. Shipped strategies (module {@code io.quackjvm.index}): {@code "scan"} (the
 * two-column table and nothing else) and {@code "art"} (the same plus a DuckDB ART index on the value column).
 *
 * <p>Implementations must be thread-safe and have a public no-argument constructor to be found by
 * {@link java.util.ServiceLoader}. Statements are run in one transaction, in the order returned.
 */
public interface IndexStrategyProvider extends Provider {

    /**
     * The statements that create the index table (and anything attached to it). The table must have exactly
     * the two columns of {@code table}, key first; the statements run only when the table does not exist.
     */
    List<String> create(IndexTableDefinition table);

    /**
     * The statements that rewrite an existing, populated table sorted by value, so that DuckDB's per-block
     * minima and maxima (zone maps) let it skip blocks. Must leave the table with the same name, columns and rows,
     * and with whatever {@link #create} attached to it.
     */
    List<String> optimize(IndexTableDefinition table);

    /**
     * The retrieval cost CQEngine's query planner is told for an {@code equal} or {@code in} query answered from
     * this strategy's table; the planner uses the index result with the lowest cost. The engine ranks its other
     * answers around it: on-heap indexes 25-53, the primary key 35 (point) and 45 (range), ranges on an attribute
     * index 65, queries that scan every value 70. Return a value from 54 to 64, lower for a strategy whose point
     * lookups are cheaper (the shipped {@code "art"} strategy returns 58). The default, 60, is a
     * lookup that scans the table's value column.
     */
    default int pointRetrievalCost() {
        return 60;
    }
}
