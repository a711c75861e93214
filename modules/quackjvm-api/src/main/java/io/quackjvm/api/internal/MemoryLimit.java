package io.quackjvm.api.internal;

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
}
