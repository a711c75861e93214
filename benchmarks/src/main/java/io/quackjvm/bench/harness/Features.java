package io.quackjvm.bench.harness;

import com.googlecode.cqengine.attribute.Attribute;
import com.googlecode.cqengine.index.Index;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Runtime detection of library features that are still being built, so this module compiles and runs against
 * whichever quackjvm is installed. Everything here is reflection; nothing is cached across JVMs.
 */
public final class Features {

    public static final String DUCKDB_INDEX = "io.quackjvm.api.DuckDBIndex";
    public static final String COLUMNAR_LAYOUT = "io.quackjvm.api.ColumnarLayout";
    public static final String DUCKDB_DATABASE = "io.quackjvm.api.DuckDBDatabase";
    public static final String ARROW_SUPPORT = "io.quackjvm.api.ArrowSupport";

    private Features() {
    }

    public static Class<?> find(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    public static boolean has(String className) {
        return find(className) != null;
    }

    private static Method staticMethod(Class<?> type, String name, int params) {
        if (type == null) {
            return null;
        }
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == params && Modifier.isStatic(m.getModifiers())) {
                return m;
            }
        }
        return null;
    }

    private static String indexProblem;
    private static String artProblem;
    private static boolean probed;

    /**
     * Probes DuckDBIndex by building one (on Car.MANUFACTURER): the class can be present while the module that
     * provides its strategies is not on the classpath yet. Null when usable, else why not.
     */
    private static synchronized void probeIndexes() {
        if (probed) {
            return;
        }
        probed = true;
        indexProblem = probe("onAttribute");
        artProblem = indexProblem != null ? indexProblem : probe("onAttributeWithArtIndex");
    }

    private static String probe(String factory) {
        Method m = staticMethod(find(DUCKDB_INDEX), factory, 1);
        if (m == null) {
            return "DuckDBIndex." + factory + " not in this build";
        }
        try {
            m.invoke(null, io.quackjvm.bench.model.Car.MANUFACTURER);
            return null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return "DuckDBIndex." + factory + " present but unusable: " + unwrap(e);
        }
    }

    /** True if DuckDBIndex.onAttribute(attribute) exists and works. */
    public static boolean hasDuckDBIndex() {
        probeIndexes();
        return indexProblem == null;
    }

    /** Why DuckDBIndex cannot be used, or null. */
    public static String duckDBIndexProblem() {
        probeIndexes();
        return indexProblem;
    }

    /** True if DuckDBIndex.onAttributeWithArtIndex(attribute) exists and works. */
    public static boolean hasArtIndex() {
        probeIndexes();
        return artProblem == null;
    }

    public static String artIndexProblem() {
        probeIndexes();
        return artProblem;
    }

    /** DuckDBIndex.onAttribute(attribute) or onAttributeWithArtIndex(attribute), reflectively. */
    @SuppressWarnings("unchecked")
    public static <O> Index<O> duckDBIndex(Attribute<O, ?> attribute, boolean art) {
        Method m = staticMethod(find(DUCKDB_INDEX), art ? "onAttributeWithArtIndex" : "onAttribute", 1);
        if (m == null) {
            throw new Subject.NotApplicable("DuckDBIndex" + (art ? ".onAttributeWithArtIndex" : "") + " not in this build");
        }
        if (art ? !hasArtIndex() : !hasDuckDBIndex()) {
            throw new Subject.NotApplicable(art ? artIndexProblem() : duckDBIndexProblem());
        }
        try {
            return (Index<O>) m.invoke(null, attribute);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("DuckDBIndex factory failed for " + attribute.getAttributeName(), unwrap(e));
        }
    }

    /**
     * A ColumnarLayout for {@code type}, trying the factory names the spec and likely variants use
     * (ofClass, of, forClass, reflective, ofRecord). Throws NotApplicable when there is no ColumnarLayout or no factory fits.
     */
    public static Object columnarLayout(Class<?> type) {
        Class<?> layout = find(COLUMNAR_LAYOUT);
        if (layout == null) {
            throw new Subject.NotApplicable("ColumnarLayout not in this build");
        }
        StringBuilder tried = new StringBuilder();
        for (String name : new String[]{"ofClass", "of", "forClass", "reflective", "ofRecord"}) {
            Method m = staticMethod(layout, name, 1);
            if (m == null || !m.getParameterTypes()[0].isAssignableFrom(Class.class)) {
                continue;
            }
            try {
                return m.invoke(null, type);
            } catch (ReflectiveOperationException e) {
                tried.append(name).append(": ").append(unwrap(e)).append("; ");
            }
        }
        throw new Subject.NotApplicable("no ColumnarLayout factory accepted " + type.getSimpleName() + " (" + tried + ")");
    }

    /** Calls a one-argument builder method by name (e.g. columnarLayout) reflectively; returns the builder. */
    public static Object callBuilder(Object builder, String name, Object arg) {
        for (Method m : builder.getClass().getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == 1 && m.getParameterTypes()[0].isInstance(arg)) {
                try {
                    return m.invoke(builder, arg);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(name + "(" + arg + ") failed", unwrap(e));
                }
            }
        }
        throw new Subject.NotApplicable("builder has no " + name + "(" + arg.getClass().getSimpleName() + ")");
    }

    /** Calls a no-argument instance method if present; returns false if absent. */
    public static boolean callIfPresent(Object target, String name) {
        Method m;
        try {
            m = target.getClass().getMethod(name);
        } catch (NoSuchMethodException e) {
            return false;
        }
        try {
            m.invoke(target);
            return true;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(name + "() failed", unwrap(e));
        }
    }

    /** "available", or "unavailable: reason", or "absent" for the library's Arrow reader. */
    public static String arrowStatus() {
        Class<?> arrow = find(ARROW_SUPPORT);
        if (arrow == null) {
            return "absent";
        }
        try {
            boolean ok = (Boolean) arrow.getMethod("isAvailable").invoke(null);
            if (ok) {
                return "available";
            }
            return "unavailable: " + arrow.getMethod("getUnavailableReason").invoke(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "unknown: " + e;
        }
    }

    public static String summary() {
        return "DuckDBIndex=" + (hasDuckDBIndex() ? "yes" : has(DUCKDB_INDEX) ? "unusable" : "no")
                + ", ART=" + hasArtIndex() + ", ColumnarLayout=" + has(COLUMNAR_LAYOUT)
                + ", DuckDBDatabase=" + has(DUCKDB_DATABASE) + ", Arrow=" + arrowStatus();
    }

    static Throwable unwrap(Throwable e) {
        while (e instanceof java.lang.reflect.InvocationTargetException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
