package io.quackjvm.api.internal;

import java.util.Iterator;

/**
 * Recognises a write made by {@code Iterator.remove()} of a CQEngine collection's iterator, by the frames of the
 * calling thread (CQEngine passes the iterator's request to the removal, and nothing else tells it apart from the
 * other writes of a request). Reads frames only: no access to anything inside them.
 */
final class IteratorRemove {

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    /** CQEngine's iterator sits a few frames above the store; a few more for wrapping collections. */
    private static final int DEPTH = 24;

    private IteratorRemove() {
    }

    static boolean isCaller() {
        return WALKER.walk(frames -> frames.limit(DEPTH).anyMatch(f -> f.getMethodName().equals("remove")
                && f.getClassName().startsWith("com.googlecode.cqengine.")
                && Iterator.class.isAssignableFrom(f.getDeclaringClass())));
    }
}
