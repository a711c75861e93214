package io.quackjvm.it.answers;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.MultiValueAttribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The objects of the answers tests: a record, stored in either layout, with edge values in its data. */
public record Sale(Integer id, String maker, Double price, Integer doors, List<String> tags) {

    public static final SimpleAttribute<Sale, Integer> ID = new SimpleAttribute<>(Sale.class, Integer.class, "id") {
        @Override public Integer getValue(Sale s, QueryOptions q) { return s.id; }
    };
    public static final SimpleAttribute<Sale, String> MAKER = new SimpleAttribute<>(Sale.class, String.class, "maker") {
        @Override public String getValue(Sale s, QueryOptions q) { return s.maker; }
    };
    public static final SimpleAttribute<Sale, Double> PRICE = new SimpleAttribute<>(Sale.class, Double.class, "price") {
        @Override public Double getValue(Sale s, QueryOptions q) { return s.price; }
    };
    public static final SimpleAttribute<Sale, Integer> DOORS = new SimpleAttribute<>(Sale.class, Integer.class, "doors") {
        @Override public Integer getValue(Sale s, QueryOptions q) { return s.doors; }
    };
    public static final MultiValueAttribute<Sale, String> TAGS = new MultiValueAttribute<>(Sale.class, String.class, "tags") {
        @Override public Iterable<String> getValues(Sale s, QueryOptions q) { return s.tags; }
    };

    static final List<String> MAKERS = List.of("Ford", "Citroën", "Škoda", "\uE000brand", "\uD83D\uDE00moji", "zeta",
            "\uFFFFlast", "Alfa");
    static final List<String> TAG_VALUES = List.of("red", "sun\uD83C\uDF1E", "cheap", "fast");

    /** {@code n} sales with random makers, prices (negative, -0.0 and 0.0 included) and tags. */
    static List<Sale> random(int n, long seed) {
        Random r = new Random(seed);
        List<Sale> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double price = switch (r.nextInt(20)) {
                case 0 -> -0.0;
                case 1 -> 0.0;
                case 2 -> -r.nextInt(1000) / 8.0;
                default -> Math.round(r.nextDouble() * 100_000) / 100.0;
            };
            List<String> tags = new ArrayList<>();
            for (String t : TAG_VALUES) {
                if (r.nextInt(3) == 0) {
                    tags.add(t);
                }
            }
            out.add(new Sale(i, MAKERS.get(r.nextInt(MAKERS.size())), price, 2 + r.nextInt(4), tags));
        }
        return out;
    }

    static List<Attribute<Sale, ?>> attributes() {
        return List.of(ID, MAKER, PRICE, DOORS, TAGS);
    }
}
