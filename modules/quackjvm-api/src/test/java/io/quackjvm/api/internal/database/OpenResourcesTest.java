package io.quackjvm.api.internal.database;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The registry that lets close() and the garbage collector release what applications leave open. */
class OpenResourcesTest {

    private static final class Counted extends OpenResources.Held {
        private final AtomicInteger freed;

        Counted(OpenResources registry, AtomicInteger freed) {
            super(registry, "A test result");
            this.freed = freed;
        }

        @Override
        protected void free() {
            freed.incrementAndGet();
        }
    }

    @Test
    void releaseAllFreesAndInvalidatesWhatIsStillOpenOnce() {
        OpenResources registry = new OpenResources(true);
        AtomicInteger freed = new AtomicInteger();
        Counted closedByOwner = new Counted(registry, freed);
        Counted leftOpen = new Counted(registry, freed);
        Counted detached = new Counted(registry, freed);
        registry.register(closedByOwner, null);
        registry.register(leftOpen, null);
        registry.register(detached, null);
        closedByOwner.release();
        assertTrue(detached.detach());
        assertEquals(1, registry.count());

        List<Throwable> origins = registry.releaseAll();

        assertEquals(1, origins.size());
        assertNotNull(origins.get(0), "origins are recorded when asked for");
        assertTrue(origins.get(0).getMessage().contains("A test result"));
        assertEquals(2, freed.get(), "each freed once; the detached one not at all");
        assertTrue(leftOpen.invalidated());
        assertFalse(closedByOwner.invalidated());
        assertFalse(detached.detach(), "a second end finds it ended");
        assertEquals(0, registry.count());
    }

    @Test
    void originsAreNotRecordedUnlessAskedFor() {
        OpenResources registry = new OpenResources(false);
        registry.register(new Counted(registry, new AtomicInteger()), null);
        List<Throwable> origins = registry.releaseAll();
        assertEquals(1, origins.size());
        assertNull(origins.get(0));
    }

    @Test
    void whatAnUnreachableOwnerHeldIsReleasedByTheCollector() throws InterruptedException {
        OpenResources registry = new OpenResources(false);
        AtomicInteger freed = new AtomicInteger();
        List<Object> kept = new ArrayList<>();
        int dropped = 96;
        for (int i = 0; i < dropped; i++) {
            registry.register(new Counted(registry, freed), new Object());
        }
        for (int i = 0; i < 5; i++) {
            Object owner = new Object();
            kept.add(owner);
            registry.register(new Counted(registry, freed), owner);
        }
        // Waits for the collector and the cleaner thread; bounded, and asserts what happened, not how fast.
        for (int i = 0; i < 200 && freed.get() < dropped; i++) {
            System.gc();
            Thread.sleep(50);
        }
        assertEquals(dropped, freed.get(), "every dropped owner's resources are freed");
        assertEquals(5, registry.count(), "what reachable owners hold stays open");
        assertEquals(5, kept.size());
    }
}
