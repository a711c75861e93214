package io.quackjvm.api.internal.database;

import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicyProvider;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The database-wide settings as a public builder collects them: one place that validates each value, refuses an
 * option set twice, and turns the lot into {@link DatabaseSettings}. Both {@code DuckDBPersistence.Builder} (a
 * database of its own) and {@code DuckDBDatabase.Builder} (a shared one) hand their calls here. Not thread-safe.
 */
public final class DatabaseOptions {

    private Path file;
    private boolean locationSet;
    private String memoryLimit;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private Integer maxPooledConnections;
    private Boolean serializeWrites;
    private ConnectionPoolProvider pool;
    private WritePolicyProvider writePolicy;
    private final List<ResultReaderProvider> readers = new ArrayList<>();
    private Boolean trackUnclosedResults;
    private Duration queryTimeout;
    private Duration slowStatementThreshold;
    private Integer maxConcurrentQueries;
    private Duration admissionTimeout;

    /** Throws {@link IllegalStateException} naming {@code option} when it was set before. */
    public static void once(boolean alreadySet, String option) {
        if (alreadySet) {
            throw new IllegalStateException(option + " was already set on this builder");
        }
    }

    public void inMemory() {
        once(locationSet, "The storage location (inMemory/file)");
        locationSet = true;
    }

    public void file(Path path) {
        once(locationSet, "The storage location (inMemory/file)");
        this.file = Objects.requireNonNull(path, "file");
        locationSet = true;
    }

    public Path file() {
        return file;
    }

    public void readOnly() {
        property("access_mode", "READ_ONLY");
    }

    public void memoryLimit(String limit) {
        once(memoryLimit != null, "memoryLimit");
        this.memoryLimit = MemoryLimit.normalise(limit);
    }

    public void property(String key, String value) {
        Objects.requireNonNull(key, "property key");
        Objects.requireNonNull(value, "value of property " + key);
        if ("memory_limit".equalsIgnoreCase(key)) {
            memoryLimit(value);
            return;
        }
        once(properties.containsKey(key), "Property " + key);
        properties.put(key, value);
    }

    public void properties(Map<String, String> settings) {
        Objects.requireNonNull(settings, "properties").forEach(this::property);
    }

    public void maxPooledConnections(int max) {
        once(maxPooledConnections != null, "maxPooledConnections");
        if (max < 0) {
            throw new IllegalArgumentException("maxPooledConnections(" + max + ") must be zero or more");
        }
        this.maxPooledConnections = max;
    }

    public void serializeWrites(boolean serialize) {
        once(serializeWrites != null, "serializeWrites");
        this.serializeWrites = serialize;
    }

    public void trackUnclosedResults(boolean track) {
        once(trackUnclosedResults != null, "trackUnclosedResults");
        this.trackUnclosedResults = track;
    }

    public void queryTimeout(Duration timeout) {
        once(queryTimeout != null, "queryTimeout");
        this.queryTimeout = positive(timeout, "queryTimeout");
    }

    public void slowStatementThreshold(Duration threshold) {
        once(slowStatementThreshold != null, "slowStatementThreshold");
        Objects.requireNonNull(threshold, "slowStatementThreshold");
        if (threshold.isNegative()) {
            throw new IllegalArgumentException("slowStatementThreshold(" + threshold + ") must be zero or more");
        }
        this.slowStatementThreshold = threshold;
    }

    public void maxConcurrentQueries(int max) {
        once(maxConcurrentQueries != null, "maxConcurrentQueries");
        if (max < 1) {
            throw new IllegalArgumentException("maxConcurrentQueries(" + max + ") must be 1 or more");
        }
        this.maxConcurrentQueries = max;
    }

    public void admissionTimeout(Duration timeout) {
        once(admissionTimeout != null, "admissionTimeout");
        this.admissionTimeout = positive(timeout, "admissionTimeout");
    }

    /** {@code d}, when it is positive. */
    public static Duration positive(Duration d, String option) {
        Objects.requireNonNull(d, option);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(option + "(" + d + ") must be positive");
        }
        return d;
    }

    public void resultReaders(ResultReaderProvider... providers) {
        once(!readers.isEmpty(), "resultReaders");
        for (ResultReaderProvider p : providers) {
            readers.add(Objects.requireNonNull(p, "result reader"));
        }
    }

    public void connectionPool(ConnectionPoolProvider provider) {
        once(pool != null, "connectionPool");
        this.pool = Objects.requireNonNull(provider, "connection pool provider");
    }

    public void writePolicy(WritePolicyProvider provider) {
        once(writePolicy != null, "writePolicy");
        this.writePolicy = Objects.requireNonNull(provider, "write policy provider");
    }

    /** The settings collected, with every default filled in. */
    public DatabaseSettings settings() {
        return new DatabaseSettings(file, memoryLimit, Map.copyOf(properties),
                serializeWrites == null || serializeWrites,
                maxPooledConnections == null ? 32 : maxPooledConnections, pool, writePolicy, List.copyOf(readers),
                trackUnclosedResults != null && trackUnclosedResults,
                new StatementSettings(queryTimeout, slowStatementThreshold,
                        maxConcurrentQueries == null ? 0 : maxConcurrentQueries,
                        admissionTimeout == null ? Duration.ofSeconds(30) : admissionTimeout));
    }
}
