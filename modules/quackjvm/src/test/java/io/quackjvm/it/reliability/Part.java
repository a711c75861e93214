package io.quackjvm.it.reliability;

import com.googlecode.cqengine.attribute.MultiValueAttribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The object of the reliability suite. Every value is a function of (id, version), so a log line naming
 * {@code id:version} pairs describes a write completely, and a stored object tells which write produced it.
 */
public final class Part {

    /** The values of {@link #GROUP}. */
    static final List<String> GROUPS = List.of("axle", "bolt", "cam", "disc", "gear", "hub", "nut", "pin");
    /** The values {@link #TAGS} draws from. */
    static final List<String> TAG_VALUES = List.of("t0", "t1", "t2", "t3", "t4", "t5");
    /** {@link #WEIGHT} lies in [0, MAX_WEIGHT). */
    static final int MAX_WEIGHT = 10_000;

    public static final SimpleAttribute<Part, Integer> ID = new SimpleAttribute<>(Part.class, Integer.class, "id") {
        @Override
        public Integer getValue(Part part, QueryOptions queryOptions) {
            return part.id;
        }
    };

    public static final SimpleAttribute<Part, String> GROUP = new SimpleAttribute<>(Part.class, String.class, "group") {
        @Override
        public String getValue(Part part, QueryOptions queryOptions) {
            return part.group;
        }
    };

    public static final SimpleAttribute<Part, Integer> WEIGHT = new SimpleAttribute<>(Part.class, Integer.class, "weight") {
        @Override
        public Integer getValue(Part part, QueryOptions queryOptions) {
            return part.weight;
        }
    };

    public static final MultiValueAttribute<Part, String> TAGS = new MultiValueAttribute<>(Part.class, String.class, "tags") {
        @Override
        public Iterable<String> getValues(Part part, QueryOptions queryOptions) {
            return part.tags;
        }
    };

    private final int id;
    private final int version;
    private final String group;
    private final int weight;
    private final ArrayList<String> tags;
    private final String note;

    private Part(int id, int version, String group, int weight, ArrayList<String> tags, String note) {
        this.id = id;
        this.version = version;
        this.group = group;
        this.weight = weight;
        this.tags = tags;
        this.note = note;
    }

    /** The one object for this id and version. */
    public static Part of(int id, int version) {
        long h = mix(((long) id << 32) ^ version);
        String group = GROUPS.get((int) Long.remainderUnsigned(h, GROUPS.size()));
        int weight = (int) Long.remainderUnsigned(h >>> 8, MAX_WEIGHT);
        ArrayList<String> tags = new ArrayList<>();
        for (int t = 0; t < TAG_VALUES.size(); t++) {
            if (((h >>> (24 + t)) & 3) == 0) { // each tag with probability 1/4, never twice
                tags.add(TAG_VALUES.get(t));
            }
        }
        String note = "n".repeat((int) Long.remainderUnsigned(h >>> 40, 300)); // blobs of varying size
        return new Part(id, version, group, weight, tags, note);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    public int id() {
        return id;
    }

    public int version() {
        return version;
    }

    public String group() {
        return group;
    }

    public int weight() {
        return weight;
    }

    public List<String> tags() {
        return tags;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Part p && id == p.id && version == p.version && weight == p.weight
                && group.equals(p.group) && tags.equals(p.tags) && note.equals(p.note);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, version);
    }

    @Override
    public String toString() {
        return id + ":" + version;
    }
}
