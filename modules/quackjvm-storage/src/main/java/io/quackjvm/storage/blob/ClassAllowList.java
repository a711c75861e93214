package io.quackjvm.storage.blob;

import io.quackjvm.api.spi.AllowedClasses;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The classes the blob layout builds from a stored row, by name: the object class, the declared types of its
 * fields and of theirs (type arguments, array components and the permitted subclasses of sealed types included),
 * the JDK's value and collection types, and what the user allowed. A row naming any other class is refused before
 * the class is even loaded, so a database file from an untrusted source cannot make the process build an object
 * of a class it did not choose (a class whose constructor, {@code readObject} or {@code hashCode} acts).
 *
 * <p>Also knows the user's classes reached this way, whose shapes the layout records ({@link ClassShapes}).
 * Immutable and thread-safe.
 */
final class ClassAllowList {

    /** The JDK classes any collection may hold: values and collections whose construction does nothing else. */
    private static final Set<String> JDK = jdkClasses();
    /** JDK packages whose every class is a value type (not their subpackages). */
    private static final Set<String> JDK_PACKAGES = Set.of("java.time");

    private final Set<String> derived;
    private final AllowedClasses user;
    /** The user's classes reached from the object class and allowed by the user, in the order they were found. */
    private final List<Class<?>> userClasses;

    private ClassAllowList(Set<String> derived, AllowedClasses user, List<Class<?>> userClasses) {
        this.derived = derived;
        this.user = user;
        this.userClasses = userClasses;
    }

    /** The allow-list of a collection of {@code objectType} whose user allowed {@code user} as well. */
    static ClassAllowList of(Class<?> objectType, AllowedClasses user) {
        Walk walk = new Walk();
        walk.add(objectType);
        user.classes().forEach(walk::add);
        walk.run();
        return new ClassAllowList(Set.copyOf(walk.names), user, List.copyOf(walk.userClasses));
    }

    /** Whether a row may name the class of this binary name ({@link Class#getName()}). */
    boolean allows(String className) {
        if (className.startsWith("[")) {
            String component = className.replaceFirst("^\\[+", "");
            if (component.length() == 1) {
                return true; // an array of a primitive type
            }
            return component.startsWith("L") && component.endsWith(";")
                    && allows(component.substring(1, component.length() - 1));
        }
        if (derived.contains(className) || JDK.contains(className) || user.allows(className)) {
            return true;
        }
        int dot = className.lastIndexOf('.');
        return dot > 0 && JDK_PACKAGES.contains(className.substring(0, dot));
    }

    /** The user's classes reached from the object class (the object class first) and those the user allowed. */
    List<Class<?>> userClasses() {
        return userClasses;
    }

    /** Whether {@code type} belongs to the JDK rather than to the application. */
    static boolean isJdk(Class<?> type) {
        return type.isPrimitive() || isJdk(type.getName());
    }

    /** Whether the class of this name belongs to the JDK's own packages. */
    static boolean isJdk(String name) {
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }

    /** The message for a class outside the list, naming the options that allow it. */
    static String refusal(String className, Class<?> objectType) {
        return "a stored row names class " + className + ", which is not allowed for a collection of "
                + objectType.getName() + ": only the object class, the declared types of its fields (and of "
                + "theirs), the permitted subclasses of sealed types among them and the JDK's value and "
                + "collection types are built from stored rows, and nothing of the class was built. If the file is "
                + "yours and the class is meant to be stored, allow it with " + new NotAllowedException(className).option()
                + " or allowPackages(\"" + packageOf(className) + "\") on the collection's builder";
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    /** Thrown by the class resolver for a class outside the list; the layout turns it into a stored-data failure. */
    static final class NotAllowedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String className;
        /** The class to name in {@code allowClasses(...)}: an enum constant's body names its enum. */
        final String suggested;

        NotAllowedException(String className) {
            this(className, className);
        }

        NotAllowedException(Class<?> type) {
            this(type.getName(), type.isAnonymousClass() && type.getSuperclass().isEnum()
                    ? type.getSuperclass().getName() : type.getName());
        }

        private NotAllowedException(String className, String suggested) {
            super("class " + className + " is not allowed", null, false, false);
            this.className = className;
            this.suggested = suggested;
        }

        /** The refusal among the causes of {@code e} (Kryo wraps what its resolver throws), or null. */
        static NotAllowedException among(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof NotAllowedException n) {
                    return n;
                }
            }
            return null;
        }

        /** {@code allowClasses(Outer.Inner.class)}. */
        String option() {
            return "allowClasses(" + simpleName(suggested) + ".class)";
        }
    }

    /** Follows declared types from the object class through the user's classes. */
    private static final class Walk {
        final Set<String> names = new LinkedHashSet<>();
        final List<Class<?>> userClasses = new ArrayList<>();
        private final List<Class<?>> pending = new ArrayList<>();

        void add(Class<?> type) {
            while (type.isArray()) {
                names.add(type.getName());
                type = type.getComponentType();
            }
            if (type.isPrimitive() || !names.add(type.getName())) {
                return;
            }
            if (!isJdk(type)) {
                userClasses.add(type);
                pending.add(type);
            }
        }

        void run() {
            while (!pending.isEmpty()) {
                Class<?> type = pending.remove(pending.size() - 1);
                if (type.isEnum()) {
                    for (Object constant : type.getEnumConstants()) {
                        names.add(constant.getClass().getName()); // a constant with a body has a class of its own
                    }
                    continue;
                }
                Class<?>[] permitted = type.getPermittedSubclasses();
                if (permitted != null) {
                    Arrays.stream(permitted).forEach(this::add);
                }
                if (type.isRecord()) {
                    for (RecordComponent c : type.getRecordComponents()) {
                        addType(c.getGenericType());
                    }
                    continue;
                }
                for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                    for (Field f : c.getDeclaredFields()) {
                        int m = f.getModifiers();
                        if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
                            addType(f.getGenericType());
                        }
                    }
                }
            }
        }

        private void addType(Type type) {
            if (type instanceof Class<?> c) {
                add(c);
            } else if (type instanceof ParameterizedType p) {
                addType(p.getRawType());
                Arrays.stream(p.getActualTypeArguments()).forEach(this::addType);
            } else if (type instanceof GenericArrayType a) {
                addType(a.getGenericComponentType());
            } else if (type instanceof WildcardType w) {
                Arrays.stream(w.getUpperBounds()).forEach(this::addType);
                Arrays.stream(w.getLowerBounds()).forEach(this::addType);
            } else if (type instanceof TypeVariable<?> v) {
                Arrays.stream(v.getBounds()).forEach(this::addType);
            }
        }
    }

    private static Set<String> jdkClasses() {
        Set<String> names = new TreeSet<>();
        for (Class<?> c : List.of(Object.class, String.class, Boolean.class, Byte.class, Character.class,
                Short.class, Integer.class, Long.class, Float.class, Double.class, StringBuilder.class,
                StringBuffer.class, java.math.BigDecimal.class, java.math.BigInteger.class, java.math.RoundingMode.class,
                java.util.UUID.class, java.util.Date.class, java.util.Locale.class, java.util.Currency.class,
                java.util.BitSet.class, java.util.Optional.class, java.util.OptionalInt.class,
                java.util.OptionalLong.class, java.util.OptionalDouble.class, java.util.GregorianCalendar.class,
                java.util.concurrent.TimeUnit.class, Character.UnicodeScript.class, Thread.State.class,
                java.time.temporal.ChronoUnit.class, java.time.temporal.ChronoField.class,
                java.time.format.TextStyle.class, java.time.format.FormatStyle.class, java.net.URI.class, java.util.regex.Pattern.class,
                java.sql.Date.class, java.sql.Time.class, java.sql.Timestamp.class,
                java.util.ArrayList.class, java.util.LinkedList.class, java.util.ArrayDeque.class,
                java.util.Vector.class, java.util.Stack.class, java.util.PriorityQueue.class,
                java.util.HashMap.class, java.util.LinkedHashMap.class, java.util.TreeMap.class,
                java.util.Hashtable.class, java.util.IdentityHashMap.class, java.util.EnumMap.class,
                java.util.HashSet.class, java.util.LinkedHashSet.class, java.util.TreeSet.class,
                java.util.concurrent.ConcurrentHashMap.class, java.util.concurrent.ConcurrentSkipListMap.class,
                java.util.concurrent.ConcurrentSkipListSet.class, java.util.concurrent.CopyOnWriteArrayList.class,
                java.util.concurrent.CopyOnWriteArraySet.class, java.util.concurrent.ConcurrentLinkedQueue.class,
                java.util.concurrent.ConcurrentLinkedDeque.class, java.util.concurrent.LinkedBlockingQueue.class,
                java.util.concurrent.ArrayBlockingQueue.class)) {
            names.add(c.getName());
        }
        // The JDK's own implementations behind its factories and views (their names are not public API).
        for (Object o : List.of(List.of(), List.of(1), List.of(1, 2, 3), Set.of(), Set.of(1), Set.of(1, 2, 3),
                Map.of(), Map.of(1, 1), Map.of(1, 1, 2, 2), Arrays.asList(), Collections.emptyList(),
                Collections.emptySet(), Collections.emptyMap(), Collections.emptySortedSet(),
                Collections.emptySortedMap(), Collections.emptyNavigableSet(), Collections.emptyNavigableMap(),
                Collections.singletonList(1), Collections.singleton(1), Collections.singletonMap(1, 1),
                Collections.unmodifiableList(new ArrayList<>()), Collections.unmodifiableList(new java.util.LinkedList<>()),
                Collections.unmodifiableCollection(new ArrayList<>()), Collections.unmodifiableSet(new java.util.HashSet<>()),
                Collections.unmodifiableSortedSet(new TreeSet<>()), Collections.unmodifiableNavigableSet(new TreeSet<>()),
                Collections.unmodifiableMap(new java.util.HashMap<>()), Collections.unmodifiableSortedMap(new TreeMap<>()),
                Collections.unmodifiableNavigableMap(new TreeMap<>()), java.util.EnumSet.noneOf(java.util.concurrent.TimeUnit.class),
                Comparator.naturalOrder(), Comparator.reverseOrder(), Collections.reverseOrder(),
                String.CASE_INSENSITIVE_ORDER)) {
            names.add(o.getClass().getName());
        }
        names.add("java.util.RegularEnumSet");
        names.add("java.util.JumboEnumSet");
        return Set.copyOf(names);
    }

    @Override
    public String toString() {
        Collection<String> all = new TreeSet<>(derived);
        return "ClassAllowList" + all + " + " + user;
    }
}
