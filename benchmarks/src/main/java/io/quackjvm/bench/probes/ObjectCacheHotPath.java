package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.index.unique.UniqueIndex;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import io.quackjvm.bench.model.Car;
import io.quackjvm.bench.model.CarGenerator;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
/**
 * The object cache's hit path alone, against CQEngine's on-heap {@code UniqueIndex}: N cars in memory, 1,000 hot
 * keys; a loop of hits (time and bytes allocated per call, from the thread's allocation counter) and single hits
 * each timed right after an uncached DuckDB lookup of a random key on a second collection (AB/BA with the heap).
 * Arguments: loop iterations (default 2,000,000). Prints; a diagnostic for {@code results/archive/object-cache/session7.md}.
 */
public final class ObjectCacheHotPath {
  private ObjectCacheHotPath() {
  }

  private static Car lookup(IndexedCollection<Car> cars, int key) {
    try (com.googlecode.cqengine.resultset.ResultSet<Car> rs = cars.retrieve(com.googlecode.cqengine.query.QueryFactory.equal(Car.CAR_ID, key))) {
      Iterator<Car> it = rs.iterator(); Car c = it.hasNext() ? it.next() : null;
      if (c == null || c.getCarId() != key) throw new IllegalStateException(); return c; } }
  private static IndexedCollection<Car> quack(int cache, List<Car> all) {
    DuckDBPersistence<Car,Integer> p = DuckDBPersistence.builder(Car.CAR_ID).objectCacheSize(cache).build();
    IndexedCollection<Car> q = new ConcurrentIndexedCollection<>(p);
    q.addIndex(DuckDBIndex.onAttribute(Car.MANUFACTURER));
    q.addIndex(DuckDBIndex.onAttribute(Car.MODEL));
    q.addIndex(DuckDBIndex.onAttribute(Car.PRICE));
    q.addAll(all);
    return q;
  }
  public static void main(String[] a) throws Exception {
    int n = 50000;
    List<Car> all = CarGenerator.cars(0, n);
    IndexedCollection<Car> q = quack(100000, all), plain = quack(0, all);
    IndexedCollection<Car> h = new ConcurrentIndexedCollection<>();
    h.addIndex(UniqueIndex.onAttribute(Car.CAR_ID));
    h.addAll(all);
    for (int k = 0; k < 1000; k++) lookup(q, k);
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long tid = Thread.currentThread().getId();
    int iters = Integer.parseInt(a.length>0?a[0]:"2000000");
    SplittableRandom r = new SplittableRandom(3);
    for (int rep = 0; rep < 4; rep++) {
      for (IndexedCollection<Car> c : List.of(q, h)) {
        long b0 = mx.getThreadAllocatedBytes(tid); long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) lookup(c, i % 1000);
        long t = System.nanoTime() - t0; long b = mx.getThreadAllocatedBytes(tid) - b0;
        System.out.printf(java.util.Locale.ROOT, "loop %s %.0f ns/op %.0f B/op%n", c == q ? "quack-hot" : "heap", (double) t / iters, (double) b / iters);
      }
      int s = 3000; long[] tq = new long[s], th = new long[s];
      for (int i = 0; i < s; i++) {
        for (int j = 0; j < 2; j++) {
          boolean quackFirst = ((i & 1) == 0) == (j == 0);
          lookup(plain, 1000 + r.nextInt(n - 1000));
          long t0 = System.nanoTime();
          lookup(quackFirst ? q : h, i % 1000);
          long d = System.nanoTime() - t0;
          if (quackFirst) tq[i] = d; else th[i] = d;
        }
      }
      Arrays.sort(tq); Arrays.sort(th);
      System.out.printf(java.util.Locale.ROOT, "single (after a DuckDB lookup): quack-hot %.2f us, heap %.2f us%n", tq[s/2]/1e3, th[s/2]/1e3);
    }
  }
}
