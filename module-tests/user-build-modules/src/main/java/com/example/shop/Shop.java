package com.example.shop;

import com.example.shop.catalog.Product;
import com.example.shop.orders.Order;
import com.example.shop.reports.Sales;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static com.googlecode.cqengine.query.QueryFactory.equal;

/** The application: orders (blob layout) and a catalogue (columnar layout) in one database, and a sales report. */
public final class Shop {

    static final String[] ITEMS = {"kettle", "toaster", "lamp", "chair", "desk", "mug", "rug"};

    /** What a run found: the orders of one item, and the sales by category. */
    public record Report(List<Order> lampOrders, List<Sales> sales) {
    }

    private Shop() {
    }

    public static List<Order> orders(int n) {
        List<Order> orders = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            orders.add(new Order(i, new UUID(i * 31, ~i), ITEMS[(int) (i % ITEMS.length)], (int) (i % 5) + 1));
        }
        return orders;
    }

    public static List<Product> catalogue() {
        List<Product> products = new ArrayList<>();
        for (int i = 0; i < ITEMS.length; i++) {
            products.add(new Product(ITEMS[i], i < 3 ? "kitchen" : "furniture", 10.0 * (i + 1)));
        }
        return products;
    }

    /** Stores {@code n} orders and the catalogue in {@code file} (in memory when null) and asks them questions. */
    public static Report run(Path file, int n) {
        DuckDBDatabase.Builder builder = DuckDBDatabase.builder();
        if (file != null) {
            builder.file(file);
        }
        try (DuckDBDatabase db = builder.build()) {
            // tag::first-program[]
            IndexedCollection<Order> orders = db.collection(Order.ORDER_ID).name("orders").build();
            orders.addIndex(DuckDBIndex.onAttribute(Order.ITEM));
            orders.addIndex(DuckDBIndex.onAttribute(Order.QUANTITY));
            IndexedCollection<Product> products = db.collection(Product.ITEM).name("products")
                    .columnarLayout(ColumnarLayout.ofRecord(Product.class)).build();
            orders.addAll(orders(n));
            products.addAll(catalogue());
            List<Order> lamps;
            try (ResultSet<Order> rs = orders.retrieve(equal(Order.ITEM, "lamp"))) {
                lamps = rs.stream().toList();
            }
            List<Sales> sales = db.query("SELECT p.category, sum(o.quantity) AS units, "
                    + "sum(o.quantity * p.price) AS revenue FROM orders o JOIN products p ON o.item = p.item "
                    + "GROUP BY 1 ORDER BY 1").records(Sales.class);
            // end::first-program[]
            return new Report(lamps, sales);
        }
    }

    public static void main(String[] args) {
        Report r = run(null, args.length > 0 ? Integer.parseInt(args[0]) : 10_000);
        System.out.println(r.lampOrders().size() + " orders of lamps; sales: " + r.sales());
    }
}
