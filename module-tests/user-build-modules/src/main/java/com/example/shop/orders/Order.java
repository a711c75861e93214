package com.example.shop.orders;

import com.googlecode.cqengine.attribute.SimpleAttribute;

import java.util.UUID;

import static com.googlecode.cqengine.query.QueryFactory.attribute;

// tag::attributes[]
/** An order: stored with the default blob layout, found by its key and by its indexed attributes. */
public record Order(long orderId, UUID customer, String item, int quantity) {

    public static final SimpleAttribute<Order, Long> ORDER_ID = attribute("orderId", Order::orderId);
    public static final SimpleAttribute<Order, String> ITEM = attribute("item", Order::item);
    public static final SimpleAttribute<Order, Integer> QUANTITY = attribute("quantity", Order::quantity);
}
// end::attributes[]
