package io.quackjvm.reader.arrow;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.RowCursor;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The {@code "arrow"} reader. DuckDB exports a result as a stream of Arrow record batches through the C data
 * interface, and rows are read from the batch's column vectors: no boxed JDBC value per cell. Setting up the
 * export costs more than reading a handful of rows, so the engine uses it only for large results (never for a
 * primary-key lookup).
 */
public final class ArrowReaderProvider implements ResultReaderProvider {

    /** Rows per Arrow batch: large enough to amortise the per-batch hand-over, small enough to stay in cache. */
    static final long BATCH_ROWS = Long.getLong("quackjvm.arrow.batchRows", 8_192);

    /** The flag Arrow needs, in the form that fits how Arrow was loaded (a named module or the class path). */
    static String requiredFlag() {
        return BufferAllocator.class.getModule().isNamed()
                ? "--add-opens=java.base/java.nio=org.apache.arrow.memory.core"
                : "--add-opens=java.base/java.nio=ALL-UNNAMED";
    }

    /** Created on first use; a JVM without the flag fails here, once, and the failure becomes the reason. */
    static final class Root {
        static final BufferAllocator ALLOCATOR;
        static final String FAILURE;

        static {
            BufferAllocator allocator = null;
            String failure = null;
            try {
                allocator = new RootAllocator();
                try (ArrowBuf probe = allocator.buffer(64)) {
                    // Importing DuckDB's stream through the C data interface wraps native memory in a direct
                    // ByteBuffer, which needs the constructor of java.nio.DirectByteBuffer: the step the flag opens.
                    MemoryUtil.directBuffer(probe.memoryAddress(), 64).putLong(0, 1L);
                }
            } catch (Throwable t) {
                failure = "Arrow cannot reach java.nio on this JVM (" + rootCause(t) + "); start Java with "
                        + requiredFlag();
                if (allocator != null) {
                    try {
                        allocator.close();
                    } catch (RuntimeException ignored) {
                        // already unusable
                    }
                }
                allocator = null;
            }
            ALLOCATOR = allocator;
            FAILURE = failure;
        }

        private static String rootCause(Throwable t) {
            Throwable c = t;
            while (c.getCause() != null && c.getCause() != c) {
                c = c.getCause();
            }
            return c.getClass().getSimpleName() + ": " + c.getMessage();
        }
    }

    @Override
    public String name() {
        return "arrow";
    }

    @Override
    public boolean bulk() {
        return true;
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.ofNullable(Root.FAILURE);
    }

    /** Arrow needs {@code java.nio} opened to its memory module: {@link #requiredFlag()}. */
    @Override
    public Optional<String> requiredJvmFlag() {
        try {
            return Optional.of(requiredFlag());
        } catch (LinkageError e) {
            // Arrow itself is missing: no flag can help, and unavailableReason says so.
            return Optional.empty();
        }
    }

    @Override
    public RowCursor open(ResultSet resultSet) throws SQLException {
        BufferAllocator allocator = Root.ALLOCATOR.newChildAllocator("quackjvm-cursor", 0, Long.MAX_VALUE);
        try {
            ArrowReader reader = (ArrowReader) resultSet.unwrap(DuckDBResultSet.class)
                    .arrowExportStream(allocator, BATCH_ROWS);
            return new ArrowRowCursor(reader, allocator);
        } catch (SQLException | RuntimeException e) {
            allocator.close();
            throw e;
        }
    }

    /** Bytes of Arrow memory held right now by every open cursor; zero when nothing leaks. */
    static long allocatedBytes() {
        return Root.ALLOCATOR == null ? 0 : Root.ALLOCATOR.getAllocatedMemory();
    }
}
