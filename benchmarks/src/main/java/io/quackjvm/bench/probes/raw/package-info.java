/**
 * Raw DuckDB probes, nothing of quackjvm in them: the single-transaction load shapes behind
 * {@code benchmarks/results/archive/bulk/large-floor.md} ({@code RawLargeFloor}: N keys under a memory limit, per
 * shape) and {@code design-shapes.md} ({@code RawStaging}, {@code RawSwap}, {@code RawInterleave},
 * {@code RawArtSlices}, {@code RawAppendCommit}: staged and swapped loads against the direct append). Each takes its
 * arguments as its comment says; some write their scratch files under {@code /tmp/bx}.
 */
package io.quackjvm.bench.probes.raw;
