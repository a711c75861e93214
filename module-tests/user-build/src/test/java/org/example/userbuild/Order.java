package org.example.userbuild;

import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.QueryFactory;

import java.util.UUID;

/** A user's record, with a UUID field, stored by the blob layout (Kryo). */
public record Order(long orderId, UUID customer, String item, int quantity) {

    /** Its key, with the types given, so that it does not depend on typetools (see {@link Lambdas}). */
    // tag::explicit-types[]
    public static final SimpleAttribute<Order, Long> ID =
            QueryFactory.attribute(Order.class, Long.class, "orderId", Order::orderId);
    // end::explicit-types[]

    static Order of(long id) {
        return new Order(id, new UUID(id * 31, ~id), "item-" + (id % 7), (int) (id % 5) + 1);
    }

    /**
     * Attributes declared the usual CQEngine way, from lambdas alone: CQEngine resolves their types with typetools,
     * which needs 0.6.3 on Java 17. A class of their own, so that a failure to resolve them is reported where they
     * are used and does not hide the other tests' results.
     */
    static final class Lambdas {
        static final SimpleAttribute<Order, Long> ORDER_ID = QueryFactory.attribute("orderId", Order::orderId);
        static final SimpleAttribute<Order, String> ITEM = QueryFactory.attribute("item", Order::item);

        private Lambdas() {
        }
    }
}
