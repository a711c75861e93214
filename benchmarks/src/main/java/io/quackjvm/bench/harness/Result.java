package io.quackjvm.bench.harness;

import java.util.Properties;

/** What one forked JVM reported for one configuration at one size. */
public final class Result {
    public final String config;
    public final int objects;
    public final Properties props;
    public final int exitCode;
    public final String log;

    public Result(String config, int objects, Properties props, int exitCode, String log) {
        this.config = config;
        this.objects = objects;
        this.props = props;
        this.exitCode = exitCode;
        this.log = log;
    }

    public String status() {
        String s = props.getProperty("status");
        if (s == null) {
            return "crashed (exit " + exitCode + ")";
        }
        return s;
    }

    public boolean skipped() {
        return "skipped".equals(props.getProperty("status"));
    }

    /** The value, or null if absent, n/a or failed. */
    public Double value(Metric m) {
        String v = props.getProperty(m.key);
        if (v == null) {
            return null;
        }
        double d = Double.parseDouble(v);
        return Double.isNaN(d) ? null : d;
    }

    /** Why there is no value (n/a reason, error, skipped), or the measurement note. */
    public String note(Metric m) {
        if (skipped()) {
            return "skipped: " + props.getProperty("reason");
        }
        String na = props.getProperty(m.key + ".na");
        if (na != null) {
            return "n/a: " + na;
        }
        String err = props.getProperty(m.key + ".error");
        if (err != null) {
            return "ERROR: " + err;
        }
        String note = props.getProperty(m.key + ".note");
        if (note == null && props.getProperty(m.key) == null) {
            return props.getProperty("error") != null ? "ERROR: " + props.getProperty("error") : "not measured";
        }
        return note == null ? "" : note;
    }
}
