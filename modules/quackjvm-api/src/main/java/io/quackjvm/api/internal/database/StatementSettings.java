package io.quackjvm.api.internal.database;

import java.time.Duration;

/**
 * How a database bounds and reports its statements, validated by {@link DatabaseOptions}.
 *
 * @param queryTimeout         the default timeout of a query, or {@code null} for none
 * @param slowThreshold        the time from which a statement is logged as slow, or {@code null} for never
 * @param maxConcurrentQueries queries that may run at once, or 0 for no limit
 * @param admissionTimeout     how long a query waits for its turn under that limit
 */
public record StatementSettings(Duration queryTimeout, Duration slowThreshold, int maxConcurrentQueries,
                                Duration admissionTimeout) {

    /** No timeout, no slow-statement log, no admission limit. */
    public static final StatementSettings NONE = new StatementSettings(null, null, 0, Duration.ofSeconds(30));
}
