package io.quackjvm.api;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one CQEngine call, passed in its query options:
 * {@code cars.retrieve(query, queryOptions(DuckDBOptions.timeout(Duration.ofSeconds(2))))}. They apply to the
 * retrievals, counts and aggregates of that call and override the database's defaults. Immutable.
 */
public final class DuckDBOptions {

    private final Duration timeout;

    private DuckDBOptions(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * Cancels each statement of the call that runs longer than {@code timeout}, which then fails with
     * {@link QueryTimeoutException}; overrides {@link DatabaseConfig#queryTimeout(Duration)}. A streamed
     * retrieval's time runs until its first rows are ready.
     *
     * @throws IllegalArgumentException when {@code timeout} is zero or negative
     */
    public static DuckDBOptions timeout(Duration timeout) {
        return new DuckDBOptions(positive(timeout, "timeout"));
    }

    /** The timeout this sets. */
    public Duration timeout() {
        return timeout;
    }

    static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(what + "(" + d + ") must be positive");
        }
        return d;
    }

    @Override
    public String toString() {
        return "DuckDBOptions.timeout(" + timeout + ")";
    }
}
