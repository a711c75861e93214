package io.quackjvm.api;

import io.quackjvm.api.internal.database.Providers;
import io.quackjvm.api.spi.ResultReaderProvider;

import java.util.Optional;

/**
 * Tells whether large results are read as Arrow batches, and if not, why.
 *
 * <pre>{@code
 * if (!ArrowSupport.isAvailable()) {
 *     log.info("Arrow off: {} (add {})", ArrowSupport.getUnavailableReason(), ArrowSupport.getRequiredJvmFlag());
 * }
 * }</pre>
 *
 * <p>Arrow needs the {@code quackjvm-reader-arrow} module (with arrow-vector, arrow-c-data and
 * arrow-memory-unsafe) and a JVM flag that opens {@code java.nio} to Arrow's memory module. Without either,
 * everything still works through JDBC rows, only slower. The answers come from the bulk result reader found on the
 * module or class path (the Arrow reader), which knows how Arrow was loaded; they are worked out once per JVM.
 * Thread-safe.
 */
public final class ArrowSupport {

    private ArrowSupport() {
    }

    private static final class Answer {
        /** The reader that reads large results in batches (the Arrow reader when its module is present). */
        static final Optional<ResultReaderProvider> BULK = Providers.load(ResultReaderProvider.class).all().stream()
                .filter(ResultReaderProvider::bulk).findFirst();
        static final String REASON = BULK.isEmpty()
                ? "the Arrow reader is not on the module or class path: add io.quackjvm:quackjvm-reader-arrow "
                        + "(it brings arrow-vector, arrow-c-data and arrow-memory-unsafe)"
                : BULK.get().unavailableReason().orElse(null);
        static final String FLAG = BULK.flatMap(ResultReaderProvider::requiredJvmFlag).orElse(null);
    }

    /** {@code true} when large results are read as Arrow batches. */
    public static boolean isAvailable() {
        return Answer.REASON == null;
    }

    /** Why Arrow is not used (what is missing: the Arrow modules, or the JVM flag), or {@code null} when it is. */
    public static String getUnavailableReason() {
        return Answer.REASON;
    }

    /**
     * The JVM flag Arrow needs, in the form that fits how this application runs: naming Arrow's memory module on
     * the module path, {@code ALL-UNNAMED} on the class path. {@code null} when the Arrow reader is not on the module
     * or class path (no flag helps then; {@link #getUnavailableReason()} says what to add).
     */
    public static String getRequiredJvmFlag() {
        return Answer.FLAG;
    }
}
