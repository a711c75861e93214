package io.quackjvm.moduletests;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Provider discovery as a user meets it: each case starts a JVM whose module path (or class path) holds the
 * api, its libraries, and exactly the provider modules of that case, runs the probe (fixture
 * {@code org.example.quackjvm.probe}), and checks its outcome. No provider, one, two with the same name, one
 * whose constructor throws (alone and beside a working one), an explicit choice that settles a tie, and a
 * missing reader or pool: every failure must be a {@code ProviderException} naming what was found and why each
 * candidate was rejected.
 */
class ProviderDiscoveryTests {

    private static final Path FIXTURES = Path.of(System.getProperty("quackjvm.fixtures", "src/test/fixtures"));
    private static final Path WORK = Path.of(System.getProperty("quackjvm.work", "target/discovery"));
    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

    /**
     * What every case sees: every module on this JVM's paths (the api and the libraries it and our providers
     * need) except the ones a case controls: our provider modules, the fixtures, the sample, the test kit, and
     * the test infrastructure.
     */
    private static List<String> base;
    private static final String STORAGE = "io.quackjvm.storage";
    private static final String READER = "io.quackjvm.reader.jdbc";
    private static final String CONCURRENCY = "io.quackjvm.concurrency";
    private static final String PROBE = "org.example.quackjvm.probe";
    private static final String DUPLICATE = "org.example.quackjvm.dupblob";
    private static final String BROKEN = "org.example.quackjvm.broken";

    private static Map<String, Path> modules;

    @BeforeAll
    static void compileFixtures() throws Exception {
        modules = ModuleJars.ofThisJvm();
        base = modules.keySet().stream().filter(ProviderDiscoveryTests::inEveryCase).toList();
        for (String name : List.of("io.quackjvm.api", "cqengine", "duckdb.jdbc")) {
            assertTrue(base.contains(name), () -> "Module " + name + " is not on this JVM's paths: " + modules.keySet());
        }
        Path classes = WORK.resolve("fixtures");
        List<String> fixtures = List.of(PROBE, DUPLICATE, BROKEN);
        List<String> javac = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "--release", "17", "-d", classes.toString(), "--module-source-path", FIXTURES.toString(),
                "--module-path", path(base.stream().map(modules::get).toList()),
                "--module", String.join(",", fixtures)));
        Result compiled = run(javac);
        assertEquals(0, compiled.exit, () -> "Compiling the fixtures failed:\n" + compiled.output);
        for (String fixture : fixtures) {
            Path services = FIXTURES.resolve(fixture).resolve("META-INF");
            if (Files.isDirectory(services)) {
                try (Stream<Path> files = Files.walk(services)) {
                    for (Path f : files.filter(Files::isRegularFile).toList()) {
                        Path target = classes.resolve(fixture).resolve(FIXTURES.resolve(fixture).relativize(f));
                        Files.createDirectories(target.getParent());
                        Files.copy(f, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            modules.put(fixture, classes.resolve(fixture));
        }
    }

    private static boolean inEveryCase(String module) {
        if (module.startsWith("io.quackjvm")) {
            return module.equals("io.quackjvm.api");
        }
        return !(module.startsWith("org.example.") || module.startsWith("org.junit") || module.startsWith("org.opentest4j")
                || module.startsWith("org.apiguardian") || module.startsWith("org.jspecify")
                || module.equals("org.slf4j.simple") || module.contains("surefire") || module.startsWith("org.apache.maven"));
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("Timed out: " + command);
        }
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static String path(List<Path> entries) {
        return entries.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * One case: the providers visible besides the base, the probe's argument, the exit code (0 works, 3 is a
     * {@code ProviderException}) and fragments its output must contain.
     */
    private record Case(String name, List<String> visible, String argument, int exit, List<String> fragments) {
    }

    private static final List<Case> CASES = List.of(
            new Case("noLayoutProviderFailsNamingWhatWasFound", List.of(READER, CONCURRENCY), "discover", 3,
                    List.of("No ObjectLayoutProvider named 'blob' was found", "Found no ObjectLayoutProvider providers",
                            "pass a provider instance to the builder")),
            new Case("exactlyOneLayoutProviderIsUsed", List.of(STORAGE, READER, CONCURRENCY), "discover", 0,
                    List.of("OK size=3 found=two")),
            new Case("twoLayoutsWithTheSameNameFailAsAmbiguousNamingBoth",
                    List.of(STORAGE, DUPLICATE, READER, CONCURRENCY), "discover", 3,
                    List.of("Several ObjectLayoutProviders are named 'blob'",
                            "'blob' (io.quackjvm.storage.blob.BlobLayoutProvider)",
                            "'blob' (org.example.quackjvm.dupblob.AnotherBlobLayout)",
                            "pass the one you want to the builder explicitly")),
            new Case("anExplicitProviderSettlesATie", List.of(STORAGE, DUPLICATE, READER, CONCURRENCY),
                    "explicit:io.quackjvm.storage.blob.BlobLayoutProvider", 0, List.of("OK size=3 found=two")),
            new Case("aLayoutWhoseConstructorThrowsIsReportedWithItsCause", List.of(BROKEN, READER, CONCURRENCY),
                    "discover", 3,
                    List.of("No ObjectLayoutProvider named 'blob' was found", "Failed to load",
                            "org.example.quackjvm.broken.BrokenLayoutProvider could not be instantiated",
                            "IllegalStateException: deliberately broken: this layout cannot start")),
            new Case("aBrokenLayoutBesideAWorkingOneLeavesTheWorkingOneInUse",
                    List.of(STORAGE, BROKEN, READER, CONCURRENCY), "discover", 0, List.of("OK size=3 found=two")),
            new Case("noResultReaderFailsNamingWhatWasFound", List.of(STORAGE, CONCURRENCY), "discover", 3,
                    List.of("No usable row-by-row ResultReaderProvider", "Found no ResultReaderProvider providers")),
            new Case("noConnectionPoolFailsNamingWhatWasFound", List.of(STORAGE, READER), "discover", 3,
                    List.of("No ConnectionPoolProvider named 'duplicating' was found",
                            "Found no ConnectionPoolProvider providers")));

    private static List<Path> entries(Case c) {
        List<Path> entries = new ArrayList<>();
        Stream.concat(Stream.concat(base.stream(), c.visible.stream()), Stream.of(PROBE)).forEach(name -> {
            Path p = modules.get(name);
            assertNotNull(p, () -> "Module " + name + " is not on this JVM's paths");
            entries.add(p);
        });
        return entries;
    }

    private static void check(Case c, List<String> command) throws Exception {
        Result r = run(command);
        assertEquals(c.exit, r.exit, () -> "Exit code of case " + c.name + "; output:\n" + r.output);
        for (String fragment : c.fragments) {
            assertTrue(r.output.contains(fragment), () -> "Case " + c.name + ": output lacks '" + fragment
                    + "':\n" + r.output);
        }
    }

    @TestFactory
    Stream<DynamicTest> onTheModulePath() {
        // No --add-modules: objenesis (an automatic module) needs jdk.unsupported to rebuild objects, and
        // io.quackjvm.storage's own "requires jdk.unsupported" must bring it into the graph.
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name, () -> check(c, List.of(JAVA.toString(),
                "--module-path", path(entries(c)), "--module", PROBE + "/" + PROBE + ".DiscoveryProbe", c.argument))));
    }

    @TestFactory
    Stream<DynamicTest> onTheClassPath() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name, () -> check(c, List.of(JAVA.toString(),
                "--class-path", path(entries(c)), PROBE + ".DiscoveryProbe", c.argument))));
    }
}
