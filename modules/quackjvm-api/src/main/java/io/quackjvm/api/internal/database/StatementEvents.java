package io.quackjvm.api.internal.database;

import io.quackjvm.api.Operation;

/**
 * The JFR side of {@link Statements}: a {@code quackjvm.Statement} event per statement that lasts at least the
 * recording's threshold (20 ms unless the recording's settings say otherwise). {@code jdk.jfr} is an optional
 * module of the library: where it is not in the module graph (a jlink image without it), no event is created and
 * nothing of JFR is loaded.
 */
final class StatementEvents {

    /** Whether {@code jdk.jfr} can be used from here: in the module graph, and readable by this module. */
    private static final boolean AVAILABLE = available();

    private StatementEvents() {
    }

    private static boolean available() {
        Module self = StatementEvents.class.getModule();
        ModuleLayer layer = self.getLayer() != null ? self.getLayer() : ModuleLayer.boot();
        return layer.findModule("jdk.jfr").map(self::canRead).orElse(false);
    }

    /** The started event of a statement, or {@code null} when JFR is not available or the event is disabled. */
    static Event begin() {
        if (!AVAILABLE) {
            return null;
        }
        return Jfr.begin();
    }

    /** Ends and commits the event when it lasted at least its threshold. */
    static void end(Event event, String sql, String collection, Operation operation, long rows) {
        Jfr.end(event, sql, collection, operation, rows);
    }

    /** Marks what {@link #begin} hands out; the JFR event itself is only named in {@link Jfr}. */
    interface Event {
    }

    /** Loaded only when {@link #AVAILABLE}. */
    private static final class Jfr {
        static Event begin() {
            StatementEvent e = new StatementEvent();
            if (!e.isEnabled()) {
                return null;
            }
            e.begin();
            return e;
        }

        static void end(Event event, String sql, String collection, Operation operation, long rows) {
            StatementEvent e = (StatementEvent) event;
            e.end();
            if (e.shouldCommit()) {
                e.sql = SqlText.elide(sql);
                e.collection = collection;
                e.operation = operation.name().toLowerCase(java.util.Locale.ROOT);
                e.rows = rows;
                e.commit();
            }
        }
    }
}
