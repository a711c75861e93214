package io.quackjvm.docs;

/** A row of a SQL answer, filled by column name. */
public record MakerStats(String manufacturer, long cars) {
}
