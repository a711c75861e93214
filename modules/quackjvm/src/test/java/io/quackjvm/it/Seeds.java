package io.quackjvm.it;

/**
 * The seed of a test whose random choices change from run to run: the value of a system property when it is set
 * (to replay a run, {@code mvn ... -D<property>=<seed>}), else a new one. Printed either way, with the flag that
 * replays it, so that a failing run can be repeated.
 */
public final class Seeds {

    private Seeds() {
    }

    public static long of(String property, String test) {
        Long given = Long.getLong(property);
        long seed = given != null ? given : System.nanoTime();
        System.out.println(test + " seed " + seed + (given != null ? " (from -D" + property + ")" : "")
                + "; replay with -D" + property + "=" + seed);
        return seed;
    }

    /** A note for failure messages: the seed and how to replay it. */
    public static String note(String property, long seed) {
        return " (seed " + seed + "; replay with -D" + property + "=" + seed + ")";
    }
}
