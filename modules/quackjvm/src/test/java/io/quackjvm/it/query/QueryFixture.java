package io.quackjvm.it.query;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.Attribute;
import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.DuckDBDatabase;
import io.quackjvm.api.DuckDBIndex;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random cars and dealers in one DuckDB database (either layout, random indexes) and on the heap. */
final class QueryFixture implements AutoCloseable {

    static final String[] MAKERS = {"audi", "bmw", "fiat", "ford", "kia", "\uD83D\uDE00x", "é", "\uE000"};
    static final String[] COLORS = {"red", "blue", "black", null};
    static final String[] CITIES = {"paris", "rome", "oslo", "lima"};
    static final String[] TAGS = {"a", "b", "ab", "\uFFFD"};

    final DuckDBDatabase db;
    final IndexedCollection<Auto> autos;
    final IndexedCollection<Dealer> dealers;
    final IndexedCollection<Auto> heapAutos = new ConcurrentIndexedCollection<>();
    final IndexedCollection<Dealer> heapDealers = new ConcurrentIndexedCollection<>();
    final boolean columnar;
    final List<Attribute<Auto, ?>> indexedAutos = new ArrayList<>();
    final List<Attribute<Dealer, ?>> indexedDealers = new ArrayList<>();

    @SuppressWarnings({"unchecked", "rawtypes"})
    QueryFixture(Random r, boolean columnar, int autoCount, int dealerCount, DuckDBDatabase.Builder builder) {
        this.columnar = columnar;
        this.db = builder.build();
        DuckDBDatabase.CollectionBuilder<Auto, Integer> ab = db.collection(Auto.ID).name("auto");
        DuckDBDatabase.CollectionBuilder<Dealer, Integer> dbd = db.collection(Dealer.ID).name("dealer");
        if (columnar) {
            ab.columnarLayout(ColumnarLayout.ofRecord(Auto.class));
            dbd.columnarLayout(ColumnarLayout.ofRecord(Dealer.class));
        }
        autos = ab.build();
        dealers = dbd.build();
        for (Attribute a : List.of(Auto.MAKER, Auto.DEALER, Auto.PRICE, Auto.COLOR, Auto.RATING, Auto.TAGS)) {
            if (r.nextInt(10) < 7) {
                // scan, ART or covering (a query on it alone is answered from the index table itself)
                int strategy = r.nextInt(3);
                autos.addIndex(strategy == 0 ? DuckDBIndex.onAttribute(a) : strategy == 1
                        ? DuckDBIndex.onAttributeWithArtIndex(a) : DuckDBIndex.onAttributeCovering(a));
                indexedAutos.add(a);
            }
        }
        for (Attribute a : List.of(Dealer.CITY, Dealer.STARS, Dealer.BRANDS)) {
            if (r.nextInt(10) < 7) {
                dealers.addIndex(DuckDBIndex.onAttribute(a));
                indexedDealers.add(a);
            }
        }
        List<Auto> as = new ArrayList<>();
        for (int i = 0; i < autoCount; i++) {
            as.add(randomAuto(r, i, dealerCount));
        }
        List<Dealer> ds = new ArrayList<>();
        for (int i = 0; i < dealerCount; i++) {
            ds.add(randomDealer(r, i));
        }
        autos.addAll(as);
        heapAutos.addAll(as);
        dealers.addAll(ds);
        heapDealers.addAll(ds);
    }

    /** Whether DuckDB can see the attribute here: the key, an indexed attribute, or a columnar field it reads. */
    boolean visible(Attribute<?, ?> a) {
        if (a == Auto.ID || a == Dealer.ID || indexedAutos.contains(a) || indexedDealers.contains(a)) {
            return true;
        }
        return columnar && (a == Auto.MAKER || a == Auto.DEALER || a == Auto.PRICE || a == Auto.USED
                || a == Auto.COLOR || a == Dealer.CITY || a == Dealer.STARS);
    }

    static Auto randomAuto(Random r, int id, int dealers) {
        List<String> tags = new ArrayList<>();
        int n = r.nextInt(3);
        for (int i = 0; i < n; i++) {
            String t = TAGS[r.nextInt(TAGS.length)];
            if (!tags.contains(t)) {
                tags.add(t);
            }
        }
        return new Auto(id, MAKERS[r.nextInt(MAKERS.length)], r.nextInt(dealers + 5), 1000L * r.nextInt(50),
                r.nextBoolean(), COLORS[r.nextInt(COLORS.length)], r.nextInt(3) == 0 ? -0.0 : r.nextInt(10) / 2.0,
                r.nextInt(100_000), tags);
    }

    static Dealer randomDealer(Random r, int id) {
        List<String> brands = new ArrayList<>();
        int n = r.nextInt(3);
        for (int i = 0; i < n; i++) {
            String b = MAKERS[r.nextInt(MAKERS.length)];
            if (!brands.contains(b)) {
                brands.add(b);
            }
        }
        return new Dealer(id, "dealer" + "x".repeat(r.nextInt(4)) + id, CITIES[r.nextInt(CITIES.length)],
                r.nextInt(6), brands);
    }

    @Override
    public void close() {
        db.close();
    }
}
