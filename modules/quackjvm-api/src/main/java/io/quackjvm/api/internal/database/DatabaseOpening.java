package io.quackjvm.api.internal.database;

import io.quackjvm.api.DatabaseLockedException;
import io.quackjvm.api.ProviderException;
import io.quackjvm.api.QuackException;
import io.quackjvm.api.spi.ConnectionInitializer;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicyProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Opening a {@link Database}: choosing its providers, claiming its file, starting DuckDB (an instance of its own
 * or a catalog of the shared in-memory engine) with its settings, and undoing all of it when any step fails, so
 * that a failed open leaves nothing open or on disk. Stateless.
 */
final class DatabaseOpening {

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    private DatabaseOpening() {
    }

    /** Opens a database; fails with a {@link QuackException} subclass naming the problem. */
    static Database open(DatabaseSettings settings) {
        ConnectionPoolProvider poolProvider = settings.poolProvider() != null ? settings.poolProvider()
                : Providers.load(ConnectionPoolProvider.class).named("duplicating");
        WritePolicyProvider policyProvider = settings.writePolicyProvider() != null ? settings.writePolicyProvider()
                : Providers.load(WritePolicyProvider.class).named("per-collection");
        Providers<ResultReaderProvider> readers = settings.readers().isEmpty()
                ? Providers.load(ResultReaderProvider.class)
                : Providers.load(ResultReaderProvider.class, settings.readers());
        ResultReaderProvider point = null;
        ResultReaderProvider bulk = null;
        for (ResultReaderProvider reader : readers.all()) {
            Optional<String> reason = reader.unavailableReason();
            if (reason.isPresent()) {
                readers.reject(reader, reason.get());
            } else if (!reader.bulk() && point == null) {
                point = reader;
            } else if (reader.bulk() && bulk == null) {
                bulk = reader;
            }
        }
        if (point == null) {
            throw new ProviderException("No usable row-by-row ResultReaderProvider (such as 'jdbc' from module "
                    + "io.quackjvm.reader.jdbc) was found. " + readers.describe());
        }
        Path file = settings.file() == null ? null : settings.file().toAbsolutePath().normalize();
        Properties properties = new Properties();
        properties.putAll(settings.properties());
        if (settings.memoryLimit() != null) {
            properties.setProperty("memory_limit", settings.memoryLimit());
        }
        // Read-only applies to the file, which is attached (see Database.CATALOG); DuckDB refuses it for the in-memory root.
        boolean readOnly = removeAccessMode(properties, file);
        // Never download anything at run time: a file DuckDB does not recognise (a SQLite database, say) would
        // otherwise make it fetch and load a scanner extension.
        properties.putIfAbsent("autoinstall_known_extensions", "false");
        properties.putIfAbsent("autoload_known_extensions", "false");
        // Streaming keeps a large scan from being materialised whole inside DuckDB before Java reads it.
        properties.setProperty("jdbc_stream_results", "true");
        // How far DuckDB runs a streaming query ahead of the reader. Its default (~1 MB, in practice ~9 MB per
        // result with 2 threads) is what an open, half-read result holds in native memory; a small buffer keeps
        // it near the one chunk being read without slowing a full scan (measured in
        // benchmarks/results/archive/reliability/abandoned-results.md). It is a per-connection setting DuckDB refuses at
        // open, so it is set on the root connection, whose duplicates inherit it.
        Object streamingBuffer = properties.remove(Database.STREAMING_BUFFER);
        String streamingBufferSize = streamingBuffer == null ? Database.DEFAULT_STREAMING_BUFFER : streamingBuffer.toString();
        // DuckDB 1.5.5 bakes column statistics into a prepared statement's plan, and a cached statement re-run
        // after other connections committed new rows answers from the old statistics: a cached
        // "SELECT count(*) FROM t" kept returning 300 after 40 rows were appended and committed, a cached
        // "... WHERE k = 305" found nothing, joins dropped rows and ORDER BY misplaced them (measured on
        // duplicated connections). With statistics propagation off every cached statement answered correctly, so
        // statements can be pooled (re-preparing costs ~120-200 us each).
        String disabled = properties.getProperty("disabled_optimizers", "").trim();
        if (!disabled.contains("statistics_propagation")) {
            properties.setProperty("disabled_optimizers",
                    disabled.isEmpty() ? "statistics_propagation" : disabled + ",statistics_propagation");
        }
        // DuckDB frees memory into its allocator (jemalloc on Linux), which keeps freed pages resident until
        // something purges them: after a 1M-object bulk load ~60 MB more stayed resident without the background
        // purge thread (measured RSS 216 MB -> 149 MB with it, columnar file, memoryLimit 256MB). The user can
        // still turn it off with property("allocator_background_threads", "false").
        properties.putIfAbsent("allocator_background_threads", "true");
        DriverVersion.requireSupported();
        // An in-memory database that asks for nothing of its own is a catalog of the process's shared engine:
        // no instance to start, no threads of its own (SharedEngine). A memory limit or any DuckDB property is a
        // setting of a whole instance, so a database with one gets an instance of its own.
        boolean shared = file == null && settings.memoryLimit() == null && settings.properties().isEmpty();
        Path spill = null;
        if (file == null && !shared && !properties.containsKey("temp_directory")) {
            spill = SpillDirectory.create();
            properties.setProperty("temp_directory", spill.toString());
        }
        if (file != null) {
            // Spill files next to the database, as DuckDB does for a database opened by its file name; the
            // in-memory database the file is attached to would otherwise spill into the working directory.
            properties.putIfAbsent("temp_directory", file + ".tmp");
        }
        List<Object> owned = file == null ? List.of() : FileClaims.reserve(file);
        // What a failed open must remove again: the files DuckDB is about to create next to nothing.
        List<Path> created = file == null ? List.of() : DatabaseFiles.absent(file);
        DatabaseResources resources = new DatabaseResources(file, readOnly, new OpenResources(settings.trackUnclosedResults()),
                spill, created, owned);
        Database db;
        try {
            if (file != null) {
                DatabaseFiles.checkIsDuckDB(file, readOnly);
            }
            if (shared) {
                SharedEngine engine = SharedEngine.get(properties);
                SharedEngine.Catalog attached = engine.attach();
                resources.shared(engine, attached.name(), attached.connection());
            } else {
                resources.root(DriverManager.getConnection("jdbc:duckdb:", properties), file == null ? "memory"
                        : Database.CATALOG);
                try (Statement s = resources.root.createStatement()) {
                    s.execute("SET " + Database.STREAMING_BUFFER + " = '" + streamingBufferSize.replace("'", "''") + "'");
                }
            }
            if (file != null) {
                try (Statement s = resources.root.createStatement()) {
                    s.execute("ATTACH '" + file.toString().replace("'", "''") + "' AS " + Database.CATALOG
                            + (readOnly ? " (READ_ONLY)" : " (ROW_GROUP_SIZE " + Database.ROW_GROUP_SIZE + ")"));
                    s.execute("USE " + Database.CATALOG);
                }
            }
            // A duplicate of the root connection starts in the instance's in-memory database: switch it to the
            // attached file or the shared engine's catalog.
            String use = resources.catalog.equals("memory") ? null : "USE " + resources.catalog;
            ConnectionInitializer initializer = use == null ? ConnectionInitializer.NONE : c -> {
                try (Statement s = c.createStatement()) {
                    s.execute(use);
                }
            };
            resources.pool = poolProvider.create(resources.root, settings.maxPooledConnections(), initializer);
            db = new Database(resources, resources.pool, policyProvider.create(settings.serializeWrites()), point,
                    bulk, settings.statements());
        } catch (SQLException e) {
            resources.undoOpen(e);
            throw openFailure(file, properties, e);
        } catch (RuntimeException | Error e) {
            resources.undoOpen(e);
            throw e;
        }
        if (file != null) {
            // A file DuckDB has just created has a file key now: a hard link made to it later is the same file.
            resources.claimed(FileClaims.claimCreated(file, owned));
        }
        LOG.debug("Opened {} (point reader '{}', bulk reader {})", db.describe(), point.name(),
                bulk == null ? "none" : "'" + bulk.name() + "'");
        return db;
    }

    /** The exception of an open that DuckDB refused. */
    private static QuackException openFailure(Path file, Properties properties, SQLException e) {
        String message = String.valueOf(e.getMessage());
        if (file != null && Failures.isFileLocked(e)) {
            return new DatabaseLockedException(file, "Cannot open database file " + file + ": it is held by "
                    + "another process, and DuckDB allows one process per database file. DuckDB said: "
                    + message, e);
        }
        return new QuackException("Cannot open " + (file == null ? "an in-memory database" : "database file " + file)
                + " with settings " + properties.keySet() + ": " + message, e);
    }

    /**
     * Takes DuckDB's {@code access_mode} out of the settings: {@code READ_ONLY} opens the file read-only.
     *
     * @return whether the file is opened read-only
     */
    private static boolean removeAccessMode(Properties properties, Path file) {
        String mode = null;
        for (String key : properties.stringPropertyNames()) {
            if (key.equalsIgnoreCase("access_mode")) {
                mode = properties.getProperty(key);
                properties.remove(key);
            }
        }
        if (mode == null || mode.equalsIgnoreCase("automatic") || mode.equalsIgnoreCase("read_write")) {
            return false;
        }
        if (!mode.equalsIgnoreCase("read_only")) {
            throw new IllegalArgumentException("property(\"access_mode\", \"" + mode + "\") is not a DuckDB access "
                    + "mode; use READ_ONLY, READ_WRITE or AUTOMATIC");
        }
        if (file == null) {
            throw new IllegalArgumentException("readOnly() (access_mode=READ_ONLY) needs a database file: an "
                    + "in-memory database starts empty, so a read-only one could never hold anything. Add .file(path)");
        }
        return true;
    }
}
