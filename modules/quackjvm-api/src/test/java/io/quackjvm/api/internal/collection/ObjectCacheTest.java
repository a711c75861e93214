package io.quackjvm.api.internal.collection;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The object cache's guard against stale puts, step by step: each interleaving of a reader (stamp, statement, put)
 * with a writer (touch before commit, end after it) that could leave an old object cached.
 */
class ObjectCacheTest {

    @Test
    void aWriteThatStartsAndEndsBetweenStampAndPutMakesThePutAMiss() {
        ObjectCache<Integer, String> cache = ObjectCache.of(10);
        long stamp = cache.stamp(1);            // reader: before its statement
        ObjectCache.Write<Integer> w = cache.beginWrite();
        w.touch(List.of(1));                   // writer: before its commit
        w.end();                               // writer: after its commit
        cache.put(1, "old", stamp);            // reader: read the row from its old snapshot
        assertNull(cache.get(1), "a row read before a commit must not be cached after it");
    }

    @Test
    void aStampTakenWhileAWriteIsInProgressNeverFills() {
        ObjectCache<Integer, String> cache = ObjectCache.of(10);
        ObjectCache.Write<Integer> w = cache.beginWrite();
        w.touch(List.of(1));
        long stamp = cache.stamp(1);
        assertEquals(ObjectCache.UNCACHEABLE, stamp);
        w.end();
        cache.put(1, "maybe old", stamp);
        assertNull(cache.get(1));
        // a stamp taken after the write ended fills again
        long fresh = cache.stamp(1);
        cache.put(1, "new", fresh);
        assertEquals("new", cache.get(1));
    }

    @Test
    void aPutBeforeTheWriteIsDroppedByItsTouch() {
        ObjectCache<Integer, String> cache = ObjectCache.of(10);
        cache.put(1, "old", cache.stamp(1));
        assertEquals("old", cache.get(1));
        ObjectCache.Write<Integer> w = cache.beginWrite();
        w.touch(List.of(1));
        assertNull(cache.get(1), "dropped before the commit");
        w.end();
        assertNull(cache.get(1));
    }

    @Test
    void aRolledBackWriteEndsItsMarksSoTheCacheFillsAgain() {
        ObjectCache<Integer, String> cache = ObjectCache.of(10);
        ObjectCache.Write<Integer> w = cache.beginWrite();
        w.touch(List.of(1, 2, 3));
        w.end();
        w.end(); // idempotent: a second end must not unbalance the marks
        long stamp = cache.stamp(2);
        assertTrue(stamp != ObjectCache.UNCACHEABLE);
        cache.put(2, "two", stamp);
        assertEquals("two", cache.get(2));
    }

    @Test
    void otherStripesKeepFillingWhileAWriteIsInProgress() {
        ObjectCache<Integer, String> cache = ObjectCache.of(10_000);
        ObjectCache.Write<Integer> w = cache.beginWrite();
        w.touch(List.of(1));
        int filled = 0;
        for (int k = 2; k < 1_000; k++) {
            long stamp = cache.stamp(k);
            cache.put(k, "v" + k, stamp);
            if (cache.get(k) != null) {
                filled++;
            }
        }
        w.end();
        assertTrue(filled > 900, "only the written key's stripe stops filling: " + filled);
    }

    @Test
    void aLargeTouchDropsEveryCachedKeyItNamesAndMarksEveryStripe() {
        ObjectCache<Integer, String> cache = ObjectCache.of(100);
        for (int k = 0; k < 50; k++) {
            cache.put(k, "v" + k, cache.stamp(k));
        }
        Set<Integer> keys = new HashSet<>();
        for (int k = 25; k < 25 + 5 * ObjectCache.STRIPES; k++) {
            keys.add(k);
        }
        ObjectCache.Write<Integer> w = cache.beginWrite();
        w.touch(keys);
        List<Integer> left = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            if (cache.get(k) != null) {
                left.add(k);
            }
        }
        assertEquals(25, left.size());
        assertTrue(left.stream().allMatch(k -> k < 25), left.toString());
        assertEquals(ObjectCache.UNCACHEABLE, cache.stamp(3), "every stripe is marked");
        w.end();
    }

    @Test
    void touchAllDropsEverything() {
        ObjectCache<Integer, String> cache = ObjectCache.of(100);
        for (int k = 0; k < 20; k++) {
            cache.put(k, "v" + k, cache.stamp(k));
        }
        ObjectCache.Write<Integer> w = cache.beginWrite();
        w.touchAll();
        assertEquals(0, cache.stats().size());
        assertNull(cache.get(3));
        w.end();
        cache.put(3, "again", cache.stamp(3));
        assertEquals("again", cache.get(3));
    }

    @Test
    void theDisabledCacheIsInert() {
        ObjectCache<Integer, String> cache = ObjectCache.of(0);
        assertFalse(cache.enabled());
        ObjectCache.Write<Integer> w = cache.beginWrite();
        w.touch(List.of(1));
        w.touchAll();
        w.end();
        assertEquals(0, cache.stats().maxSize());
    }
}
