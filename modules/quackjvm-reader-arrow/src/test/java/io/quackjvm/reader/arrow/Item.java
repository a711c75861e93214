package io.quackjvm.reader.arrow;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;

import java.util.List;

/** A record stored with the blob layout by the reader tests. */
public record Item(long id, String name, double price, List<String> tags) {

    public static final SimpleAttribute<Item, Long> ID = new SimpleAttribute<>(Item.class, Long.class, "id") {
        @Override
        public Long getValue(Item item, QueryOptions queryOptions) {
            return item.id;
        }
    };

    static Item of(long id) {
        return new Item(id, "item \uD83E\uDD86 " + id, id * 1.5, id % 2 == 0 ? List.of("even") : List.of());
    }
}
