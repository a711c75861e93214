package io.quackjvm.api;

/**
 * {@link DuckDBDatabase#query} refused a SQL text before running anything, because it reaches beyond the
 * collections' relations: a table function or a file or URL read ({@code read_csv('...')}, {@code FROM 'f.csv'}),
 * a relation that is not a collection (the library's own tables, another schema or catalog, the system catalogs),
 * a function that reveals the configuration or has side effects ({@code current_setting}, {@code nextval}), or a
 * statement that is not one SELECT ({@code COPY}, {@code SET}, {@code ATTACH}, several statements). The message
 * names the construct. Query the collections by their names, with pure scalar, aggregate and window functions.
 */
public class UnsafeQueryException extends QuackException {

    private static final long serialVersionUID = 1L;

    /** A refusal whose message names the construct and what is allowed instead. */
    public UnsafeQueryException(String message) {
        super(message);
    }
}
