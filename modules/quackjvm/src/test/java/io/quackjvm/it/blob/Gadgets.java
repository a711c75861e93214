package io.quackjvm.it.blob;

import java.util.concurrent.atomic.AtomicInteger;

/** Classes a crafted row may name: each records that it was loaded or built. Never on any allow-list by default. */
final class Gadgets {

    /** How often a {@link Gadget} was built, and whether {@link StaticGadget} was initialised. */
    static final AtomicInteger BUILT = new AtomicInteger();
    static volatile boolean staticGadgetInitialised;

    private Gadgets() {
    }

    /** Its constructor counts. */
    public static final class Gadget {
        public Gadget() {
            BUILT.incrementAndGet();
        }

        private Object readResolve() {
            BUILT.incrementAndGet();
            return this;
        }
    }

    /** Its static initialiser records that the class was initialised; a row names it by hand. */
    public static final class StaticGadget {
        static {
            staticGadgetInitialised = true;
        }

        public StaticGadget() {
            BUILT.incrementAndGet();
        }
    }

    /** A harmless class whose name is as long as {@link StaticGadget}'s, to craft a row naming the other. */
    public static final class StaticTwinXX {
    }
}
