package io.quackjvm.api.internal.database;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * The JFR event of one statement (see {@link StatementEvents}). Its threshold is the recording's to set, for
 * example {@code RecordingStream.enable("quackjvm.Statement").withThreshold(Duration.ofMillis(5))}.
 */
@Name("quackjvm.Statement")
@Label("quackjvm Statement")
@Category("quackjvm")
@Description("A statement quackjvm ran in DuckDB, with its SQL (values elided), collection, operation and rows")
@Threshold("20 ms")
@StackTrace(false)
final class StatementEvent extends jdk.jfr.Event implements StatementEvents.Event {

    @Label("SQL")
    String sql;

    @Label("Collection")
    String collection;

    @Label("Operation")
    String operation;

    @Label("Rows")
    @Description("Rows returned, or -1 when not known (a streamed retrieval)")
    long rows;
}
