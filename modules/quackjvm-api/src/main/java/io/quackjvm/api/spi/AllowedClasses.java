package io.quackjvm.api.spi;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The classes a user allowed a layout to instantiate when it reads rows, beyond those the layout derives from the
 * collection's object class. A layout that writes class names into rows (the {@code "blob"} layout does, for a
 * field whose declared type is an interface, an abstract class or {@code Object}) must refuse to instantiate any
 * class it reads from a row unless the class is derived or allowed here: a database file can come from anyone.
 *
 * <p>Immutable and thread-safe.
 *
 * @param classes  classes allowed by name, exactly (not their subclasses)
 * @param packages packages whose classes are allowed (not their subpackages), such as {@code "com.example.model"}
 */
public record AllowedClasses(List<Class<?>> classes, List<String> packages) {

    private static final Pattern PACKAGE = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");

    /** Nothing beyond what the layout derives from the object class. */
    public static final AllowedClasses NONE = new AllowedClasses(List.of(), List.of());

    /**
     * @throws IllegalArgumentException when a package name is not a Java package name, or names one of the JDK's
     *                                  own packages ({@code java.}, {@code javax.}, {@code jdk.}, {@code sun.},
     *                                  {@code com.sun.}), which would admit classes that act when built
     */
    public AllowedClasses {
        classes = List.copyOf(classes);
        packages = List.copyOf(packages);
        for (String p : packages) {
            if (!PACKAGE.matcher(p).matches()) {
                throw new IllegalArgumentException("allowPackages(\"" + p + "\"): not a Java package name; give the "
                        + "package of the classes to allow, such as \"com.example.model\"");
            }
            for (String jdk : List.of("java.", "javax.", "jdk.", "sun.", "com.sun.")) {
                if ((p + ".").startsWith(jdk)) {
                    throw new IllegalArgumentException("allowPackages(\"" + p + "\"): a JDK package cannot be allowed "
                            + "as a whole; allow the classes your objects hold with allowClasses(...)");
                }
            }
        }
    }

    /** The allowance of these classes and packages. */
    public static AllowedClasses of(Class<?>[] classes, String[] packages) {
        return new AllowedClasses(Arrays.stream(classes).<Class<?>>map(c -> Objects.requireNonNull(c, "allowed class"))
                .toList(),
                Arrays.stream(packages).map(p -> Objects.requireNonNull(p, "allowed package")).toList());
    }

    /** Whether the class of this binary name ({@link Class#getName()}) is allowed here. */
    public boolean allows(String className) {
        for (Class<?> c : classes) {
            if (c.getName().equals(className)) {
                return true;
            }
        }
        int dot = className.lastIndexOf('.');
        return dot > 0 && packages.contains(className.substring(0, dot));
    }
}
