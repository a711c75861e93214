package io.quackjvm.it.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One request of the crash workload as written to the ack log: its sequence number, its kind, the objects it
 * removes and the objects it adds, each as {@code id:version}. {@link #applyTo} is the model of its effect.
 *
 * <p>Log protocol (one {@code write} call per line, so a SIGKILL leaves at most one partial last line, which the
 * reader ignores): {@code R} when the collection is open, {@code B seq kind removes adds} before the call,
 * {@code A seq} after it returned. A request with an {@code A} line is acknowledged; a {@code B} line without one
 * is the request the kill interrupted.
 */
record Request(long seq, Kind kind, List<Part> removes, List<Part> adds) {

    enum Kind {
        ADD, ADD_ALL_SMALL, ADD_ALL_LARGE, REMOVE, REMOVE_ALL, UPDATE, OPTIMIZE, COMPACT;

        boolean writes() {
            return this != OPTIMIZE && this != COMPACT;
        }
    }

    /** The effect on a model (id to version), as on-heap CQEngine over a primary key: remove by equality, add replaces. */
    void applyTo(Map<Integer, Integer> model) {
        for (Part p : removes) {
            model.remove(p.id(), p.version());
        }
        for (Part p : adds) {
            model.put(p.id(), p.version());
        }
    }

    String beginLine() {
        return "B " + seq + " " + kind + " " + encode(removes) + " " + encode(adds) + "\n";
    }

    static Request parseBegin(String line) {
        String[] f = line.split(" ");
        if (f.length != 5 || !f[0].equals("B")) {
            throw new IllegalArgumentException("Not a begin line: " + line);
        }
        return new Request(Long.parseLong(f[1]), Kind.valueOf(f[2]), decode(f[3]), decode(f[4]));
    }

    private static String encode(List<Part> parts) {
        if (parts.isEmpty()) {
            return "-";
        }
        StringBuilder b = new StringBuilder();
        for (Part p : parts) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(p.id()).append(':').append(p.version());
        }
        return b.toString();
    }

    private static List<Part> decode(String field) {
        List<Part> out = new ArrayList<>();
        if (!field.equals("-")) {
            for (String pair : field.split(",")) {
                int colon = pair.indexOf(':');
                out.add(Part.of(Integer.parseInt(pair.substring(0, colon)), Integer.parseInt(pair.substring(colon + 1))));
            }
        }
        return out;
    }
}
