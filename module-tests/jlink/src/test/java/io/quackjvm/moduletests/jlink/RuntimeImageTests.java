package io.quackjvm.moduletests.jlink;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Links the application module {@code io.quackjvm.moduletests.jlink}, quackjvm, DuckDB and CQEngine into a
 * runtime image and runs {@link ImageMain} inside it: once letting {@code --bind-services} bring in our
 * providers, once naming them in {@code --add-modules}. jlink refuses automatic modules, so the build gives
 * CQEngine, DuckDB and their dependencies module descriptors first (moditect, into {@code target/jlink/modules};
 * those jars are never published). {@code --limit-modules} keeps the image to the modules the application
 * needs, and {@code --add-options} bakes the JVM options in.
 */
class RuntimeImageTests {

    private static final Path JLINK_DIR = Path.of(System.getProperty("quackjvm.jlink.dir", "target/jlink"));
    private static final Path APP = Path.of(System.getProperty("quackjvm.jlink.app", "target/classes"));
    private static final String APP_MODULE = "io.quackjvm.moduletests.jlink";
    private static final String MAIN = APP_MODULE + "/" + APP_MODULE + ".ImageMain";
    private static final List<String> PROVIDERS = List.of("io.quackjvm.storage", "io.quackjvm.reader.jdbc",
            "io.quackjvm.concurrency", "io.quackjvm.index");

    /** The universe --bind-services may pick from: the application's module graph and our providers. */
    private static final List<String> UNIVERSE = List.of("java.base", "java.sql", "java.logging", "java.xml",
            "java.transaction.xa", "jdk.unsupported", "jdk.jfr", "io.quackjvm.api", "cqengine", "concurrent.trees",
            "duckdb.jdbc", "org.slf4j", "com.esotericsoftware.kryo", "com.esotericsoftware.reflectasm",
            "com.esotericsoftware.minlog", "org.objenesis", "de.javakaffee.kryoserializers",
            "com.github.benmanes.caffeine");

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("Timed out: " + command);
        }
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @BeforeAll
    static void modulesArePrepared() {
        assertTrue(Files.isDirectory(JLINK_DIR.resolve("modules")), "moditect did not run: no " + JLINK_DIR.resolve("modules"));
        assertTrue(Files.isRegularFile(APP.resolve("module-info.class")), "no application module in " + APP);
    }

    /** Links an image and returns jlink's verbose output. */
    private static String link(String name, List<String> options) throws Exception {
        Path image = JLINK_DIR.resolve("images").resolve(name);
        delete(image);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "jlink").toString(),
                // descriptor-injected copies first, so they win over the automatic originals in libs/
                // the JDK's jmods named explicitly: with --limit-modules jlink does not add them by itself
                "--module-path", String.join(File.pathSeparator,
                        Path.of(System.getProperty("java.home"), "jmods").toString(), JLINK_DIR.resolve("modules").toString(),
                        JLINK_DIR.resolve("libs").toString(), APP.toString()),
                "--strip-debug", "--no-header-files", "--no-man-pages", "--verbose",
                "--add-options", "-Dquackjvm.image=" + name,
                "--output", image.toString()));
        command.addAll(options);
        Result linked = run(command);
        assertEquals(0, linked.exit, () -> "jlink failed for image " + name + ":\n" + linked.output);
        return linked.output;
    }

    private static String runImage(String name) throws Exception {
        Path java = JLINK_DIR.resolve("images").resolve(name).resolve("bin").resolve("java");
        Result r = run(List.of(java.toString(), "-m", MAIN));
        assertEquals(0, r.exit, () -> "ImageMain failed in image " + name + ":\n" + r.output);
        return r.output;
    }

    private static void assertRanInsideTheImage(String name, String output) {
        assertTrue(output.lines().anyMatch(l -> l.startsWith("layouts=") && List.of(l.substring(8).split(","))
                .contains("blob")), () -> "Image " + name + " has no blob layout:\n" + output);
        for (String line : List.of("image=" + name, "duckdb.module=duckdb.jdbc (explicit)",
                "readers=jdbc", "pools=duplicating", "writePolicies=per-collection", "size=1000",
                "gear500=gear-500", "gear500again=gear-500", "cacheHits=1", "priced10to20=100",
                "sizeAfterRemove=999")) {
            assertTrue(output.lines().anyMatch(line::equals), () -> "Image " + name + " did not print '" + line
                    + "':\n" + output);
        }
    }

    @Test
    void bindServicesLinksOurProvidersAndTheCollectionWorksInTheImage() throws Exception {
        String verbose = link("bind-services", List.of("--add-modules", APP_MODULE, "--bind-services",
                "--limit-modules", String.join(",", APP_MODULE, String.join(",", PROVIDERS), String.join(",", UNIVERSE))));
        for (String provider : PROVIDERS) {
            assertTrue(verbose.contains(provider + " provides io.quackjvm.api.spi."),
                    () -> "--bind-services did not bind " + provider + ":\n" + verbose);
        }
        assertRanInsideTheImage("bind-services", runImage("bind-services"));
    }

    @Test
    void explicitAddModulesLinksOurProvidersAndTheCollectionWorksInTheImage() throws Exception {
        String verbose = link("add-modules", List.of("--add-modules", APP_MODULE + "," + String.join(",", PROVIDERS)));
        assertTrue(!verbose.contains("jdk.localedata"), () -> "The image holds JDK modules it does not need:\n" + verbose);
        assertRanInsideTheImage("add-modules", runImage("add-modules"));
    }
}
