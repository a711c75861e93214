/**
 * Index-table strategies for DuckDB attribute indexes. Provides {@code "scan"} (a two-column table that DuckDB
 * scans) and {@code "art"} (the same plus a DuckDB ART index on the value column). Exports nothing: the strategies
 * are found through {@link io.quackjvm.api.spi.IndexStrategyProvider} and chosen with
 * {@code DuckDBIndex.onAttribute} / {@code DuckDBIndex.onAttributeWithArtIndex}.
 */
module io.quackjvm.index {
    requires io.quackjvm.api;

    provides io.quackjvm.api.spi.IndexStrategyProvider with io.quackjvm.index.ScanIndexStrategy,
            io.quackjvm.index.ArtIndexStrategy;
}
