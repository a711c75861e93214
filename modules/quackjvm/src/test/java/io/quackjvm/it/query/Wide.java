package io.quackjvm.it.query;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.Random;

/** An object with a large payload, for the join streaming test: a few thousand of them fill many megabytes. */
public record Wide(int id, String maker, String payload) {

    public static final SimpleAttribute<Wide, Integer> ID = new SimpleAttribute<>(Wide.class, Integer.class, "id") {
        @Override public Integer getValue(Wide o, QueryOptions q) { return o.id; }
    };
    public static final SimpleAttribute<Wide, String> MAKER = new SimpleAttribute<>(Wide.class, String.class, "maker") {
        @Override public String getValue(Wide o, QueryOptions q) { return o.maker; }
    };

    /** A deterministic object: one of five makers, and {@code payloadChars} characters that do not compress. */
    public static Wide of(int id, int payloadChars) {
        Random random = new Random(id);
        StringBuilder payload = new StringBuilder(payloadChars);
        for (int i = 0; i < payloadChars; i++) {
            payload.append((char) ('!' + random.nextInt(90)));
        }
        return new Wide(id, "maker" + id % 5, payload.toString());
    }
}
