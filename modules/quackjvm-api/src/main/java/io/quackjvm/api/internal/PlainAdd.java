package io.quackjvm.api.internal;

/**
 * Recognises an object-store {@code add} made by CQEngine's {@code ConcurrentIndexedCollection.add(object)} (also
 * reached through {@code ObjectLockingIndexedCollection.add}), by the calling frames: that request writes the one
 * object and nothing else of ours, so it needs no transaction of its own. The same store method is also called once
 * per object by {@code update} and {@code addAll} of an {@code Iterable} that is not a {@code Collection}, inside a
 * request that writes more: those are told apart here. Reads frames only.
 */
final class PlainAdd {

    private static final StackWalker WALKER = StackWalker.getInstance();
    /** The engine and the store adapter. */
    private static final String OURS = "io.quackjvm.api.";
    /** The store's caller sits a few frames above this one. */
    private static final int DEPTH = 8;

    private PlainAdd() {
    }

    static boolean isCaller() {
        return WALKER.walk(frames -> frames.limit(DEPTH)
                .filter(f -> !f.getClassName().startsWith(OURS))
                .findFirst()
                .map(f -> f.getMethodName().equals("add")
                        && f.getClassName().equals("com.googlecode.cqengine.ConcurrentIndexedCollection"))
                .orElse(false));
    }
}
