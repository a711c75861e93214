package io.quackjvm.bench.harness;

/** Sizes, budgets and heap per harness mode. */
public enum Mode {
    //        objects    lookWarm lookMax  budgetMs queryMax adds heap     forkTimeoutS
    TINY(      2_000,      100,     300,      60,     10,     20, "512m",   180),
    QUICK(   100_000,    3_000,  10_000,   1_500,    200,    200, "2g",     600),
    FULL(  1_000_000,   10_000,  20_000,   4_000,    500,    500, "6g",    2400);

    public final int objects;
    public final int lookupWarmup;
    public final int lookupMax;
    public final long budgetMillis;
    public final int queryMax;
    public final int singleAdds;
    public final String heap;
    public final int forkTimeoutSeconds;

    Mode(int objects, int lookupWarmup, int lookupMax, long budgetMillis, int queryMax, int singleAdds, String heap,
         int forkTimeoutSeconds) {
        this.objects = objects;
        this.lookupWarmup = lookupWarmup;
        this.lookupMax = lookupMax;
        this.budgetMillis = budgetMillis;
        this.queryMax = queryMax;
        this.singleAdds = singleAdds;
        this.heap = heap;
        this.forkTimeoutSeconds = forkTimeoutSeconds;
    }

    public static Mode parse(String s) {
        return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    }
}
