package org.example.quackjvm.json;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.attribute.SimpleNullableAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/** One record with a field of every attribute kind the three layouts can all store. */
public record Item(String id, String title, int pages, long stock, Double price, boolean inPrint, Genre genre) {

    public enum Genre { FICTION, SCIENCE, POETRY }

    public static final SimpleAttribute<Item, String> ID = simple(String.class, "id", Item::id);
    public static final SimpleNullableAttribute<Item, String> TITLE = nullable(String.class, "title", Item::title);
    /** How many times {@link #PAGES} was read from an object, to tell a query DuckDB answered from one Java filtered. */
    public static final AtomicLong PAGES_READS = new AtomicLong();
    public static final SimpleAttribute<Item, Integer> PAGES = simple(Integer.class, "pages", i -> {
        PAGES_READS.incrementAndGet();
        return i.pages();
    });
    public static final SimpleAttribute<Item, Long> STOCK = simple(Long.class, "stock", Item::stock);
    public static final SimpleNullableAttribute<Item, Double> PRICE = nullable(Double.class, "price", Item::price);
    public static final SimpleAttribute<Item, Boolean> IN_PRINT = simple(Boolean.class, "inPrint", Item::inPrint);
    public static final SimpleNullableAttribute<Item, Genre> GENRE = nullable(Genre.class, "genre", Item::genre);

    /** Every attribute but the key. */
    public static final List<Attribute<Item, ?>> FIELDS = List.of(TITLE, PAGES, STOCK, PRICE, IN_PRINT, GENRE);

    private static <A> SimpleAttribute<Item, A> simple(Class<A> type, String name, Function<Item, A> get) {
        return new SimpleAttribute<>(Item.class, type, name) {
            @Override
            public A getValue(Item item, QueryOptions queryOptions) {
                return get.apply(item);
            }
        };
    }

    private static <A> SimpleNullableAttribute<Item, A> nullable(Class<A> type, String name, Function<Item, A> get) {
        return new SimpleNullableAttribute<>(Item.class, type, name) {
            @Override
            public A getValue(Item item, QueryOptions queryOptions) {
                return get.apply(item);
            }
        };
    }
}
