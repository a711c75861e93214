package io.quackjvm.it.index;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.MultiValueAttribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.attribute.SimpleNullableAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/** An object with one attribute of every value type the DuckDB index stores, used by the index tests. */
public final class Item {

    public enum Colour { RED, GREEN, BLUE, WHITE }

    public static final SimpleAttribute<Item, Integer> ID = new SimpleAttribute<>(Item.class, Integer.class, "id") {
        @Override public Integer getValue(Item o, QueryOptions q) { return o.id; }
    };
    public static final SimpleAttribute<Item, String> NAME = new SimpleAttribute<>(Item.class, String.class, "name") {
        @Override public String getValue(Item o, QueryOptions q) { return o.name; }
    };
    public static final SimpleAttribute<Item, Double> SCORE = new SimpleAttribute<>(Item.class, Double.class, "score") {
        @Override public Double getValue(Item o, QueryOptions q) { return o.score; }
    };
    public static final SimpleAttribute<Item, Float> WEIGHT = new SimpleAttribute<>(Item.class, Float.class, "weight") {
        @Override public Float getValue(Item o, QueryOptions q) { return o.weight; }
    };
    public static final SimpleAttribute<Item, BigDecimal> PRICE = new SimpleAttribute<>(Item.class, BigDecimal.class, "price") {
        @Override public BigDecimal getValue(Item o, QueryOptions q) { return o.price; }
    };
    public static final SimpleAttribute<Item, Long> COUNT = new SimpleAttribute<>(Item.class, Long.class, "count") {
        @Override public Long getValue(Item o, QueryOptions q) { return o.count; }
    };
    public static final SimpleAttribute<Item, Colour> COLOUR = new SimpleAttribute<>(Item.class, Colour.class, "colour") {
        @Override public Colour getValue(Item o, QueryOptions q) { return o.colour; }
    };
    public static final SimpleAttribute<Item, Boolean> FLAG = new SimpleAttribute<>(Item.class, Boolean.class, "flag") {
        @Override public Boolean getValue(Item o, QueryOptions q) { return o.flag; }
    };
    public static final MultiValueAttribute<Item, String> TAGS = new MultiValueAttribute<>(Item.class, String.class, "tags") {
        @Override public Iterable<String> getValues(Item o, QueryOptions q) { return o.tags; }
    };
    public static final SimpleNullableAttribute<Item, String> NICK = new SimpleNullableAttribute<>(Item.class, String.class, "nick") {
        @Override public String getValue(Item o, QueryOptions q) { return o.nick; }
    };

    /** Every attribute except the primary key. */
    public static final List<Attribute<Item, ?>> INDEXED = List.of(NAME, SCORE, WEIGHT, PRICE, COUNT, COLOUR, FLAG, TAGS, NICK);

    final int id;
    final String name;
    final double score;
    final float weight;
    final BigDecimal price;
    final long count;
    final Colour colour;
    final boolean flag;
    final List<String> tags;
    final String nick;

    public Item(int id, String name, double score, float weight, BigDecimal price, long count, Colour colour,
                boolean flag, List<String> tags, String nick) {
        this.id = id;
        this.name = name;
        this.score = score;
        this.weight = weight;
        this.price = price;
        this.count = count;
        this.colour = colour;
        this.flag = flag;
        this.tags = tags;
        this.nick = nick;
    }

    /** A simple item for tests that need only a few fields. */
    public static Item of(int id, String name, double score, List<String> tags) {
        return new Item(id, name, score, (float) score, BigDecimal.valueOf(score), id, Colour.values()[id % 4],
                id % 2 == 0, tags, id % 3 == 0 ? null : name + "!");
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Item i && id == i.id && Objects.equals(name, i.name)
                && Double.compare(score, i.score) == 0 && Float.compare(weight, i.weight) == 0
                && Objects.equals(price, i.price) && count == i.count && colour == i.colour && flag == i.flag
                && Objects.equals(tags, i.tags) && Objects.equals(nick, i.nick);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, score, weight, price, count, colour, flag, tags, nick);
    }

    @Override
    public String toString() {
        return "Item{" + id + ", " + name + ", " + score + ", " + weight + ", " + price + ", " + count + ", " + colour
                + ", " + flag + ", " + tags + ", " + nick + "}";
    }
}
