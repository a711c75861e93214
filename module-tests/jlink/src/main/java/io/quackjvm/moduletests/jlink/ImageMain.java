package io.quackjvm.moduletests.jlink;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.query.option.QueryOptions;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.api.spi.Provider;
import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.api.spi.WritePolicyProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeSet;

import static com.googlecode.cqengine.query.QueryFactory.between;
import static com.googlecode.cqengine.query.QueryFactory.equal;

/** Writes and queries a DuckDB-backed collection and prints what it saw, one {@code key=value} per line. */
public final class ImageMain {

    /** A gear: a plain class with no no-argument constructor, stored by the blob layout. */
    public static final class Gear {
        final int id;
        final String name;
        final double price;

        Gear(int id, String name, double price) {
            this.id = id;
            this.name = name;
            this.price = price;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Gear g && g.id == id && g.name.equals(name) && g.price == price;
        }

        @Override
        public int hashCode() {
            return id;
        }
    }

    static final SimpleAttribute<Gear, Integer> ID = new SimpleAttribute<>(Gear.class, Integer.class, "id") {
        @Override
        public Integer getValue(Gear gear, QueryOptions queryOptions) {
            return gear.id;
        }
    };

    static final SimpleAttribute<Gear, Double> PRICE = new SimpleAttribute<>(Gear.class, Double.class, "price") {
        @Override
        public Double getValue(Gear gear, QueryOptions queryOptions) {
            return gear.price;
        }
    };

    private static <P extends Provider> String names(Class<P> type) {
        TreeSet<String> names = new TreeSet<>();
        ServiceLoader.load(type).forEach(p -> names.add(p.name()));
        return String.join(",", names);
    }

    public static void main(String[] args) {
        System.out.println("image=" + System.getProperty("quackjvm.image"));
        System.out.println("duckdb.module=" + ModuleLayer.boot().findModule("duckdb.jdbc")
                .map(m -> m.getName() + (m.getDescriptor().isAutomatic() ? " (automatic)" : " (explicit)"))
                .orElse("absent"));
        System.out.println("layouts=" + names(ObjectLayoutProvider.class));
        System.out.println("readers=" + names(ResultReaderProvider.class));
        System.out.println("pools=" + names(ConnectionPoolProvider.class));
        System.out.println("writePolicies=" + names(WritePolicyProvider.class));
        // with the object cache on, so that Caffeine is linked and used in the image
        try (DuckDBPersistence<Gear, Integer> persistence = DuckDBPersistence.builder(ID).objectCacheSize(100).build()) {
            IndexedCollection<Gear> gears = new ConcurrentIndexedCollection<>(persistence);
            List<Gear> batch = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                batch.add(new Gear(i, "gear-" + i, i / 10.0));
            }
            gears.addAll(batch);
            System.out.println("size=" + gears.size());
            try (ResultSet<Gear> rs = gears.retrieve(equal(ID, 500))) {
                System.out.println("gear500=" + rs.uniqueResult().name);
            }
            try (ResultSet<Gear> rs = gears.retrieve(equal(ID, 500))) {
                System.out.println("gear500again=" + rs.uniqueResult().name);
            }
            System.out.println("cacheHits=" + persistence.cacheStats().hits());
            try (ResultSet<Gear> rs = gears.retrieve(between(PRICE, 10.0, 19.95))) {
                System.out.println("priced10to20=" + rs.size());
            }
            gears.remove(batch.get(0));
            System.out.println("sizeAfterRemove=" + gears.size());
        }
    }
}
