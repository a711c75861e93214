package com.example.shop.catalog;

import com.googlecode.cqengine.attribute.SimpleAttribute;

import static com.googlecode.cqengine.query.QueryFactory.attribute;

/** A product of the catalogue: stored with the columnar layout, one typed column per component. */
public record Product(String item, String category, double price) {

    public static final SimpleAttribute<Product, String> ITEM = attribute("item", Product::item);
    public static final SimpleAttribute<Product, String> CATEGORY = attribute("category", Product::category);
}
