package io.quackjvm.bench.probes;

import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.attribute.SimpleAttribute;
import com.googlecode.cqengine.persistence.Persistence;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One built checkout's modules, loaded in a class loader of their own over the third-party jars of the class path,
 * so that two builds of the library run side by side in one JVM; and the parts of the report such a comparison of
 * builds {@code a} and {@code b} prints. Run on a class path without quackjvm's modules.
 */
final class Checkout {

    /** Sets up a {@code DuckDBPersistence.Builder} of a build, reflectively; runs with the build's class loader. */
    interface Configure {
        void apply(Checkout build, Object builder) throws Exception;
    }

    /** An open persistence of a build and a collection over it; closing it closes the persistence. */
    static final class Opened<O> implements AutoCloseable {
        final Persistence<O, Integer> persistence;
        final IndexedCollection<O> collection;

        Opened(Persistence<O, Integer> persistence) {
            this.persistence = persistence;
            this.collection = new ConcurrentIndexedCollection<>(persistence);
        }

        @Override
        public void close() throws Exception {
            ((AutoCloseable) persistence).close();
        }
    }

    /**
     * A comparison of two builds as its command line sets it up: {@code --a DIR --b DIR} (both required),
     * {@code --out FILE} (optional) and whole-number options, each followed by its value; the two checkouts loaded,
     * a scratch folder and the report begun with {@link #header}.
     */
    static final class Comparison {
        /** Build {@code a}, then build {@code b}. */
        final Checkout[] builds;
        /** A new temporary folder for the files of the run. */
        final Path dir;
        final StringBuilder report;
        private final Path out;
        private final Map<String, Integer> numbers;

        /**
         * Reads {@code args} ({@code numbers} names the whole-number options with their defaults), loads
         * {@code modules} of both checkouts, makes the scratch folder (its name starting {@code dirPrefix}) and heads
         * the report {@code title}.
         *
         * @throws IllegalArgumentException on an unknown option, without {@code --a} or {@code --b}, or where a
         *                                  checkout is not built
         */
        Comparison(String[] args, Map<String, Integer> numbers, List<String> modules, String dirPrefix, String title)
                throws IOException {
            this.numbers = new HashMap<>(numbers);
            Path a = null;
            Path b = null;
            Path out = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--a" -> a = Path.of(args[++i]);
                    case "--b" -> b = Path.of(args[++i]);
                    case "--out" -> out = Path.of(args[++i]);
                    default -> {
                        if (!numbers.containsKey(args[i])) {
                            throw new IllegalArgumentException("Unknown argument " + args[i]);
                        }
                        this.numbers.put(args[i], Integer.parseInt(args[++i]));
                    }
                }
            }
            if (a == null || b == null) {
                throw new IllegalArgumentException("--a and --b name the two built checkouts");
            }
            this.out = out;
            this.builds = new Checkout[] {new Checkout("a", a, modules), new Checkout("b", b, modules)};
            this.dir = Files.createTempDirectory(dirPrefix);
            this.report = header(title, a, b);
        }

        /** The value of the whole-number option {@code option}, or its default. */
        int number(String option) {
            return numbers.get(option);
        }

        /** {@link Checkout#finish} of the report, to {@code --out} when given. */
        void finish() throws IOException {
            Checkout.finish(report, out);
        }
    }

    final String name;
    private final ClassLoader loader;

    /**
     * The classes of {@code modules} (each {@code modules/<module>/target/classes} of {@code checkout}), under
     * {@code name} in the report.
     *
     * @throws IllegalArgumentException where a module's classes are missing
     */
    Checkout(String name, Path checkout, List<String> modules) throws IOException {
        this.name = name;
        List<URL> urls = new ArrayList<>();
        for (String m : modules) {
            Path classes = checkout.resolve("modules").resolve(m).resolve("target/classes");
            if (!Files.isDirectory(classes)) {
                throw new IllegalArgumentException(classes + " is missing: build the checkout first");
            }
            urls.add(classes.toUri().toURL());
        }
        this.loader = new URLClassLoader(urls.toArray(URL[]::new), Checkout.class.getClassLoader());
    }

    /** The class {@code className} of this build (initialised). */
    Class<?> type(String className) throws ClassNotFoundException {
        return Class.forName(className, true, loader);
    }

    /**
     * {@code DuckDBPersistence.builder(key).file(file)}, then {@code configure}, then {@code build()}, all of this
     * build, with its class loader as the thread's context class loader meanwhile (the library finds its providers
     * through ServiceLoader).
     */
    @SuppressWarnings("unchecked")
    <O> Opened<O> open(SimpleAttribute<O, Integer> key, Path file, Configure configure) throws Exception {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            Object builder = type("io.quackjvm.api.DuckDBPersistence").getMethod("builder", SimpleAttribute.class)
                    .invoke(null, key);
            builder.getClass().getMethod("file", Path.class).invoke(builder, file);
            configure.apply(this, builder);
            Object persistence = builder.getClass().getMethod("build").invoke(builder);
            return new Opened<>((Persistence<O, Integer>) persistence);
        } finally {
            t.setContextClassLoader(before);
        }
    }

    /**
     * A report headed {@code # title}, then the time, the load average and the Java version, and the two
     * checkouts; the caller goes on with a line of its own or a blank line.
     */
    static StringBuilder header(String title, Path a, Path b) {
        return new StringBuilder().append("# ").append(title).append("\n\n")
                .append(Instant.now()).append(", load average ").append(loadAverage()).append(", Java ")
                .append(System.getProperty("java.version")).append("\n\n- a: ").append(a).append("\n- b: ").append(b);
    }

    /** Ends the report with the load average at the end, prints it and writes it to {@code out} when there is one. */
    static void finish(StringBuilder report, Path out) throws IOException {
        report.append("\nload average at the end ").append(loadAverage()).append('\n');
        System.out.print(report);
        if (out != null) {
            Files.writeString(out, report);
        }
    }

    /** The middle value of {@code values} (the mean of the two middle ones for an even count). */
    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** {@code values} rounded to one decimal. */
    static double[] round1(double[] values) {
        return Arrays.stream(values).map(v -> Math.round(v * 10) / 10.0).toArray();
    }

    /** The 1-minute load average from /proc/loadavg, {@code unknown} without it. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0];
        } catch (Exception e) {
            return "unknown";
        }
    }
}
