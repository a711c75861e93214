package io.quackjvm.bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A self-contained SVG of horizontal log-scale bar panels, one per metric. No external tools. */
final class Svg {

    private static final int WIDTH = 900;
    private static final int LABEL = 170;
    private static final int VALUE = 90;
    private static final int BAR_H = 16;
    private static final int GAP = 4;

    private Svg() {
    }

    private static String colour(String config) {
        if (config.startsWith("quack")) return "#e8a33d";
        if (config.startsWith("raw")) return "#5a9e6f";
        if (config.equals(Configs.ON_HEAP)) return "#7a7a7a";
        return "#4f7cac";
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static String chart(List<Result> results, List<Metric> metrics, String title) {
        StringBuilder body = new StringBuilder();
        int y = 40;
        for (Metric m : metrics) {
            List<Result> rows = new ArrayList<>();
            double min = Double.MAX_VALUE;
            double max = 0;
            for (Result r : results) {
                Double v = r.value(m);
                if (v != null && v > 0) {
                    rows.add(r);
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
            if (rows.isEmpty()) {
                continue;
            }
            body.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" class=\"h\">%s (%s)</text>%n", y, esc(m.title), esc(m.unit)));
            y += 8;
            double lo = Math.floor(Math.log10(min)) - 0.3;
            double hi = Math.log10(max);
            double span = Math.max(hi - lo, 0.5);
            int barMax = WIDTH - LABEL - VALUE - 20;
            for (Result r : rows) {
                double v = r.value(m);
                int w = (int) Math.max(2, Math.round((Math.log10(v) - lo) / span * barMax));
                body.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"l\">%s</text>%n", LABEL - 6, y + BAR_H - 4, esc(r.config)));
                body.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n", LABEL, y, w, BAR_H, colour(r.config)));
                body.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"v\">%s %s</text>%n", LABEL + w + 5, y + BAR_H - 4, Report.fmt(v), esc(m.unit)));
                y += BAR_H + GAP;
            }
            y += 26;
        }
        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">%n", WIDTH, y, WIDTH, y)
                + "<style>text{font-family:sans-serif;font-size:12px}.h{font-weight:bold;font-size:13px}.l{text-anchor:end}.v{fill:#333}</style>\n"
                + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
                + String.format(Locale.ROOT, "<text x=\"10\" y=\"20\" class=\"h\">%s</text>%n", esc(title))
                + body + "</svg>\n";
    }
}
