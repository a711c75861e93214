package io.quackjvm.bench.harness;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;

/**
 * One build of the library in a class loader of its own, so that several builds run side by side in one JVM over
 * the same third-party jars (CQEngine, Kryo, DuckDB's driver, whose native library is loaded once).
 *
 * <p>Child first for every {@code io.quackjvm} class: the build's classes and this module's own harness classes
 * (which link to the build's API) are defined here, except the types all builds share: the data model
 * ({@code io.quackjvm.bench.model}) and {@link Subject}. Service files and resources of {@code io.quackjvm} come
 * only from the build, so a library on the parent class path is never seen. A build is either a checkout
 * ({@code DIR/modules/<module>/target/classes} of every module there) or a folder of the library's jars.
 */
final class BuildLoader extends URLClassLoader {

    static {
        registerAsParallelCapable();
    }

    final String name;

    private BuildLoader(String name, URL[] urls, ClassLoader parent) {
        super("build-" + name, urls, parent);
        this.name = name;
    }

    /**
     * The build at {@code dir} (a built checkout or a folder of jars), with this module's classes.
     *
     * @throws IllegalArgumentException when {@code dir} holds no built library
     */
    static BuildLoader of(String name, Path dir) throws IOException {
        List<URL> urls = new ArrayList<>();
        Path modules = dir.resolve("modules");
        if (Files.isDirectory(modules)) {
            try (Stream<Path> s = Files.list(modules)) {
                for (Path m : s.sorted().toList()) {
                    Path classes = m.resolve("target/classes");
                    String module = m.getFileName().toString();
                    // the library's modules only: not the BOM, nor test helpers
                    if (Files.isDirectory(classes.resolve("io/quackjvm")) && !module.endsWith("testkit")) {
                        urls.add(classes.toUri().toURL());
                    }
                }
            }
        } else if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path jar : s.filter(p -> p.getFileName().toString().startsWith("quackjvm")
                        && p.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                    urls.add(jar.toUri().toURL());
                }
            }
        }
        if (urls.isEmpty()) {
            throw new IllegalArgumentException(dir + " holds no built quackjvm: give a checkout built with "
                    + "`mvn -B -DskipTests package` (its modules/*/target/classes) or a folder of quackjvm*.jar");
        }
        urls.add(BuildLoader.class.getProtectionDomain().getCodeSource().getLocation());
        return new BuildLoader(name, urls.toArray(URL[]::new), BuildLoader.class.getClassLoader());
    }

    private static boolean ours(String className) {
        return className.startsWith("io.quackjvm.") && !className.startsWith("io.quackjvm.bench.model.")
                && !className.equals(Subject.class.getName()) && !className.startsWith(Subject.class.getName() + "$");
    }

    private static boolean ourResource(String resource) {
        return resource.startsWith("io/quackjvm/") || resource.startsWith("META-INF/services/io.quackjvm");
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
        if (!ours(className)) {
            return super.loadClass(className, resolve);
        }
        synchronized (getClassLoadingLock(className)) {
            Class<?> c = findLoadedClass(className);
            if (c == null) {
                c = findClass(className);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    @Override
    public URL getResource(String resource) {
        return ourResource(resource) ? findResource(resource) : super.getResource(resource);
    }

    @Override
    public Enumeration<URL> getResources(String resource) throws IOException {
        return ourResource(resource) ? findResources(resource) : super.getResources(resource);
    }

    /** Runs {@code action} with this build as the thread's context class loader (ServiceLoader looks there). */
    <T> T call(java.util.concurrent.Callable<T> action) throws Exception {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(this);
        try {
            return action.call();
        } finally {
            t.setContextClassLoader(before);
        }
    }
}
