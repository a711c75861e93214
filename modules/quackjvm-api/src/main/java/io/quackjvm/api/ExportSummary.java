package io.quackjvm.api;

/**
 * What an export to Parquet wrote ({@link ParquetExport#toParquet}).
 *
 * @param rows  the rows written, one per object exported
 * @param files the Parquet files written (one per partition directory when partitioned)
 * @param bytes the size of those files together, in bytes
 */
public record ExportSummary(long rows, int files, long bytes) {
}
