package com.example.shop;

import com.example.shop.catalog.Product;
import com.example.shop.orders.Order;
import com.example.shop.reports.Sales;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application runs as a named module with only the {@code opens} lines its descriptor declares: objects stored
 * by Kryo, a columnar record and SQL result records, with attributes declared from lambdas (resolved by typetools).
 */
class ModulePathTest {

    @TempDir
    Path dir;

    @Test
    void theApplicationIsANamedModuleOnTheModulePath() {
        assertEquals("com.example.shop", Shop.class.getModule().getName());
        assertTrue(Order.class.getModule().isNamed());
        for (String library : List.of("io.quackjvm.api", "io.quackjvm.storage", "com.esotericsoftware.kryo")) {
            assertTrue(Shop.class.getModule().getLayer().findModule(library).isPresent(),
                    library + " is not on the module path");
        }
    }

    @Test
    void lambdaAttributesResolveTheirTypes() {
        assertEquals(Long.class, Order.ORDER_ID.getAttributeType());
        assertEquals(Integer.class, Order.QUANTITY.getAttributeType());
        assertEquals(String.class, Product.CATEGORY.getAttributeType());
        assertEquals(Product.class, Product.CATEGORY.getObjectType());
    }

    @Test
    void ordersCatalogueAndReportInAFile() {
        int n = 2_000;
        Shop.Report report = Shop.run(dir.resolve("shop.duckdb"), n);
        List<Order> all = Shop.orders(n);
        assertEquals(all.stream().filter(o -> o.item().equals("lamp")).collect(Collectors.toSet()),
                Set.copyOf(report.lampOrders()));
        Map<String, Product> byItem = Shop.catalogue().stream()
                .collect(Collectors.toMap(Product::item, p -> p));
        Map<String, Long> units = all.stream().collect(Collectors.groupingBy(
                o -> byItem.get(o.item()).category(), Collectors.summingLong(Order::quantity)));
        assertEquals(List.of("furniture", "kitchen"), report.sales().stream().map(Sales::category).toList());
        for (Sales s : report.sales()) {
            assertEquals(units.get(s.category()), s.units(), s.toString());
            double revenue = all.stream().filter(o -> byItem.get(o.item()).category().equals(s.category()))
                    .mapToDouble(o -> o.quantity() * byItem.get(o.item()).price()).sum();
            assertEquals(revenue, s.revenue(), 1e-6);
        }
        assertTrue(report.sales().stream().max(Comparator.comparingDouble(Sales::revenue)).isPresent());
    }
}
