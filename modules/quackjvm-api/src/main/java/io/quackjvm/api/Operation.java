package io.quackjvm.api;

/**
 * What the library was doing when it reports to an {@link OperationListener}: the kind of CQEngine or quackjvm
 * call a statement serves.
 */
public enum Operation {
    /** A lookup of one object by its primary key (the object cache answers some without a statement). */
    LOOKUP,
    /** A retrieval: the rows of a CQEngine query, or of a join. */
    RETRIEVAL,
    /** A count, an {@code isEmpty}, a {@code contains} or another question answered with a number. */
    COUNT,
    /** An {@code add} or {@code addAll}: one write transaction. */
    ADD,
    /** A {@code remove}, {@code removeAll}, {@code retainAll} or {@code clear}: one write transaction. */
    REMOVE,
    /** A bulk writer's whole load, or one committed slice of it. */
    BULK_WRITE,
    /** A typed aggregate ({@link DuckDBDatabase#from}) or a join's count. */
    AGGREGATE,
    /** A statement of {@link DuckDBDatabase#query}. */
    SQL,
    /** A Parquet export. */
    EXPORT
}
