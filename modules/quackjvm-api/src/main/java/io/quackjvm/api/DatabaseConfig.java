package io.quackjvm.api;

import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicyProvider;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The settings of a whole database, with their one definition: {@link DuckDBDatabase.Builder} takes them for a
 * database shared by several collections, {@link DuckDBPersistence.Builder} for the database of a single
 * collection. Settings of one collection are in {@link CollectionConfig}.
 *
 * <p>Every method validates its argument at once and throws {@link IllegalArgumentException} naming the bad value;
 * setting the same option twice throws {@link IllegalStateException}. A builder is not thread-safe.
 *
 * @param <B> the builder, returned by every method for chaining
 */
public interface DatabaseConfig<B extends DatabaseConfig<B>> {

    /** Keeps the database in memory (the default). */
    B inMemory();

    /** Keeps the database in {@code file}, created if absent and reopened if present. */
    B file(Path file);

    /** Keeps the database in {@code file}, created if absent and reopened if present. */
    default B file(File file) {
        return file(Objects.requireNonNull(file, "file").toPath());
    }

    /**
     * Opens the {@link #file(Path) file} for reading only, as DuckDB's {@code access_mode=READ_ONLY} does: every
     * write is refused, nothing in the file changes, and any number of processes may open it this way at once
     * while none opens it for writing, for example to serve reads from a {@link DuckDBDatabase#snapshot snapshot}.
     * The collections must exist in the file. See docs/reliability.md.
     *
     * @throws IllegalArgumentException at build time when no file was set (an in-memory database cannot be
     *                                  read-only)
     */
    B readOnly();

    /**
     * Caps DuckDB's buffer pool for the whole database, for example {@code "256MB"}. DuckDB's default is 80% of
     * system memory. See docs/tuning.md.
     *
     * @throws IllegalArgumentException naming the value and the accepted forms when it is not a memory size
     */
    B memoryLimit(String limit);

    /**
     * Passes any DuckDB setting, for example {@code property("threads", "2")}; {@code memory_limit} is the same
     * option as {@link #memoryLimit(String)}.
     */
    B property(String key, String value);

    /** Passes several DuckDB settings at once, each as {@link #property(String, String)} would. */
    B properties(Map<String, String> settings);

    /**
     * Whether writers to one collection wait for each other (default {@code true}); writers of different
     * collections never do. Turn off only when concurrent writes never touch the same primary key: a conflicting
     * write then fails with {@link WriteConflictException} and is rolled back whole. See docs/concurrency.md.
     */
    B serializeWrites(boolean serialize);

    /**
     * How many idle connections to keep for reuse between requests (default 32; 0 keeps none).
     *
     * @throws IllegalArgumentException when {@code max} is negative
     */
    B maxPooledConnections(int max);

    /**
     * Records where each result set and iterator is opened (a stack trace each, so off by default), so that
     * closing can log where the ones left unclosed came from, and a result dropped unclosed is logged with its
     * origin when the garbage collector releases it. For finding leaks in tests.
     */
    B trackUnclosedResults(boolean track);

    /**
     * Cancels every retrieval, count, aggregate and SQL statement that runs longer than {@code timeout} (default:
     * none); the caller gets {@link QueryTimeoutException}. A call overrides it with {@link DuckDBOptions#timeout}
     * in its query options, a SQL statement with {@link QueryResult#timeout}. Writes are not bounded by it: they
     * end whole or roll back whole. See docs/operations.md.
     *
     * @throws IllegalArgumentException when {@code timeout} is zero or negative
     */
    B queryTimeout(Duration timeout);

    /**
     * Logs a warning through SLF4J (logger {@code io.quackjvm.slow}) for every statement that takes
     * {@code threshold} or longer, with its SQL (values elided), the CQEngine query it came from, its rows and its
     * time (default: off). A JFR event ({@code quackjvm.Statement}) is recorded independently, at the threshold of
     * the recording's settings. See docs/operations.md.
     *
     * @throws IllegalArgumentException when {@code threshold} is negative
     */
    B slowStatementThreshold(Duration threshold);

    /**
     * Lets at most {@code max} retrievals, counts, aggregates, exports and SQL statements run at once in this
     * database (default: no limit); the others wait their turn in arrival order, up to
     * {@link #admissionTimeout(Duration)}. Lookups by primary key and writes never wait for it. A lever on the tail
     * latency of short queries when long ones share DuckDB's threads with them: see docs/operations.md for what
     * it buys on a small machine.
     *
     * @throws IllegalArgumentException when {@code max} is less than 1
     */
    B maxConcurrentQueries(int max);

    /**
     * How long a statement waits for its turn under {@link #maxConcurrentQueries(int)} before it fails with
     * {@link QueryTimeoutException} (default: 30 seconds).
     *
     * @throws IllegalArgumentException when {@code timeout} is zero or negative
     */
    B admissionTimeout(Duration timeout);

    /** Uses these result readers instead of the ones discovered with {@link java.util.ServiceLoader}. */
    B resultReaders(ResultReaderProvider... providers);

    /** Uses this connection pool instead of the discovered {@code "duplicating"} one. */
    B connectionPool(ConnectionPoolProvider provider);

    /** Uses this write policy instead of the discovered {@code "per-collection"} one. */
    B writePolicy(WritePolicyProvider provider);
}
