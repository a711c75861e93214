package io.quackjvm.docs;

import com.googlecode.cqengine.attribute.SimpleAttribute;

import static com.googlecode.cqengine.query.QueryFactory.attribute;

/** A dealer, selling one brand in one city, rated with stars. */
public record Dealer(int dealerId, String name, String brand, String city, int stars) {

    public static final SimpleAttribute<Dealer, Integer> DEALER_ID = attribute("dealerId", Dealer::dealerId);
    public static final SimpleAttribute<Dealer, String> BRAND = attribute("brand", Dealer::brand);
    public static final SimpleAttribute<Dealer, String> CITY = attribute("city", Dealer::city);
    public static final SimpleAttribute<Dealer, Integer> STARS = attribute("stars", Dealer::stars);
}
