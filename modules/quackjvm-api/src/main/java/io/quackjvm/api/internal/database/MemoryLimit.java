package io.quackjvm.api.internal.database;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses a memory limit the way DuckDB's {@code memory_limit} setting reads it, but fails early and clearly. */
public final class MemoryLimit {

    private static final Pattern FORM = Pattern.compile(
            "\\s*(\\d+(?:\\.\\d+)?)\\s*(B|BYTES|KB|KIB|MB|MIB|GB|GIB|TB|TIB)\\s*", Pattern.CASE_INSENSITIVE);

    /** The accepted forms, for error messages. */
    public static final String ACCEPTED = "a number followed by a unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), "
            + "for example \"512MB\", \"1.5GB\" or \"256MiB\"";

    private MemoryLimit() {
    }

    /**
     * Returns the value in the form DuckDB accepts, or throws {@link IllegalArgumentException} naming the bad
     * value and listing the accepted forms.
     */
    public static String normalise(String value) {
        if (value == null) {
            throw new IllegalArgumentException("memoryLimit must not be null; accepted: " + ACCEPTED);
        }
        Matcher m = FORM.matcher(value);
        if (m.matches()) {
            double amount = Double.parseDouble(m.group(1));
            if (amount <= 0) {
                throw new IllegalArgumentException("memoryLimit(\"" + value + "\") must be greater than zero");
            }
            return m.group(1) + m.group(2).toUpperCase(Locale.ROOT);
        }
        throw new IllegalArgumentException("memoryLimit(\"" + value + "\") is not a memory size; accepted: " + ACCEPTED);
    }

    /**
     * The message for DuckDB's "Out of Memory Error": it names memoryLimit and what to do. Spilling does not make any
     * limit work: DuckDB 1.5.5 keeps the primary-key index (an ART) and each running statement's working memory
     * (hash tables of joins and IN lists, the vectors of every thread) in memory; only table data is evicted.
     */
    public static String explainOutOfMemory(String action, String detail, String sql) {
        return action + " failed: DuckDB ran out of memory within its memory limit (the builder's memoryLimit, "
                + "default 80% of RAM). Table data is spilled to temporary files, but the primary-key index and the "
                + "working memory of running statements are not, so the limit must leave room for them: raise "
                + "memoryLimit (see docs/tuning.md for measured minimums), or lower property(\"threads\", ...) so "
                + "fewer statements' buffers are held at once; close results and iterators you no longer read (each "
                + "open one holds about a chunk of DuckDB memory until it is closed, or until the JVM collects it "
                + "when it was dropped). DuckDB said: " + detail
                + (sql == null ? "" : " SQL: " + sql);
    }
}
