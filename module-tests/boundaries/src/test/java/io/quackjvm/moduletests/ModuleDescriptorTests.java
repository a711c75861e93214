package io.quackjvm.moduletests;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every module under {@code modules/} is checked against a golden file {@code descriptors/<artifact>.expected.txt}
 * (format: {@link ModuleDescriptorText}), read from the jar the build produced, and against the rules of the
 * architecture: named, not open, every package under the module name, provider modules export and open
 * nothing, depend on no module of ours but the api and use nothing of it but its SPI package, and every
 * {@code provides} is also registered in {@code META-INF/services} for class-path users.
 *
 * <p>Adding a module: build it, then run this class with {@code -Dquackjvm.updateDescriptors=true}, which
 * writes the golden file of every built module; review the new file and commit it. A module whose jar has not
 * been built fails the test with a message saying how to build it: never skipped, never passed.
 */
class ModuleDescriptorTests {

    private static final Path ROOT = Path.of(System.getProperty("quackjvm.root", "../..")).toAbsolutePath().normalize();
    private static final String VERSION = System.getProperty("quackjvm.version", "0.1.0-SNAPSHOT");
    private static final Path GOLDEN = Path.of(System.getProperty("quackjvm.descriptors",
            "src/test/resources/descriptors"));
    private static final boolean UPDATE = Boolean.getBoolean("quackjvm.updateDescriptors");
    private static final String API = "io.quackjvm.api";

    private static Path jarOf(String artifact) {
        return ROOT.resolve("modules").resolve(artifact).resolve("target").resolve(artifact + "-" + VERSION + ".jar");
    }

    private static List<String> goldenArtifacts() throws IOException {
        try (Stream<Path> files = Files.list(GOLDEN)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".expected.txt"))
                    .map(n -> n.substring(0, n.length() - ".expected.txt".length())).sorted().toList();
        }
    }

    /** The artifacts under modules/ that declare a module (have a module-info.java). */
    private static List<String> declaredArtifacts() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT.resolve("modules"))) {
            return dirs.filter(d -> Files.exists(d.resolve("src/main/java/module-info.java")))
                    .map(d -> d.getFileName().toString()).sorted().toList();
        }
    }

    private static ModuleReference moduleIn(Path jar) {
        Set<ModuleReference> refs = ModuleFinder.of(jar).findAll();
        assertEquals(1, refs.size(), () -> jar + " holds " + refs.size() + " modules");
        return refs.iterator().next();
    }

    private static String notBuilt(Object what) {
        return what + " has not been built; run 'mvn verify' from the root (or 'mvn package -DskipTests' there "
                + "before running this class alone)";
    }

    /** The descriptor of a built module; fails when its jar is absent. */
    private static ModuleDescriptor builtDescriptor(String artifact) {
        Path jar = jarOf(artifact);
        assertTrue(Files.isRegularFile(jar), () -> notBuilt(jar));
        return moduleIn(jar).descriptor();
    }

    @TestFactory
    Stream<DynamicTest> descriptorMatchesGoldenFile() throws IOException {
        List<String> artifacts = UPDATE ? declaredArtifacts() : goldenArtifacts();
        return artifacts.stream().map(artifact -> DynamicTest.dynamicTest(artifact, () -> {
            ModuleDescriptor d = builtDescriptor(artifact);
            List<String> actual = ModuleDescriptorText.of(d);
            Path golden = GOLDEN.resolve(artifact + ".expected.txt");
            if (UPDATE) {
                Files.write(golden, actual, StandardCharsets.UTF_8);
            }
            List<String> expected = Files.readAllLines(golden, StandardCharsets.UTF_8).stream()
                    .filter(line -> !line.isBlank()).toList();
            assertLinesMatch(expected, actual, () -> "The module descriptor in " + jarOf(artifact) + " differs from "
                    + golden + ". If the change is intended, rerun with -Dquackjvm.updateDescriptors=true and review "
                    + "the diff. Actual:\n" + String.join("\n", actual));
        }));
    }

    @Test
    void everyModuleUnderModulesHasAGoldenFile() throws IOException {
        Set<String> missing = new TreeSet<>(declaredArtifacts());
        goldenArtifacts().forEach(missing::remove);
        Set<String> unbuilt = missing.stream().filter(a -> !Files.isRegularFile(jarOf(a)))
                .collect(Collectors.toCollection(TreeSet::new));
        assertTrue(unbuilt.isEmpty(), () -> notBuilt(unbuilt) + ", and they have no golden descriptor file");
        assertTrue(missing.isEmpty(), () -> "No golden descriptor file for " + missing + ". Build the module, run "
                + "'mvn -pl module-tests/boundaries verify -Dquackjvm.updateDescriptors=true', review and commit "
                + GOLDEN + "/<artifact>.expected.txt");
    }

    @TestFactory
    Stream<DynamicTest> moduleIsNamedAndNotOpen() throws IOException {
        return goldenArtifacts().stream().map(artifact -> DynamicTest.dynamicTest(artifact, () -> {
            ModuleDescriptor d = builtDescriptor(artifact);
            assertFalse(d.isAutomatic(), () -> artifact + " must carry a module-info, not be an automatic module");
            assertFalse(d.isOpen(), () -> d.name() + " must not be an open module");
            assertTrue(d.name().startsWith("io.quackjvm"), () -> d.name() + " is not under io.quackjvm");
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyPackageStartsWithTheModuleName() throws IOException {
        return goldenArtifacts().stream().map(artifact -> DynamicTest.dynamicTest(artifact, () -> {
            ModuleDescriptor d = builtDescriptor(artifact);
            List<String> strays = d.packages().stream()
                    .filter(p -> !p.equals(d.name()) && !p.startsWith(d.name() + ".")).sorted().toList();
            assertTrue(strays.isEmpty(), () -> "Packages of " + d.name() + " outside its name: " + strays);
        }));
    }

    @TestFactory
    Stream<DynamicTest> providerModulesExportNothingAndDependOnlyOnTheApi() throws IOException {
        return goldenArtifacts().stream().map(artifact -> DynamicTest.dynamicTest(artifact, () -> {
            ModuleDescriptor d = builtDescriptor(artifact);
            if (d.provides().isEmpty() || d.name().equals(API)) {
                return;
            }
            assertTrue(d.exports().isEmpty(), () -> "Provider module " + d.name() + " must export nothing, but "
                    + "exports " + d.exports());
            assertTrue(d.opens().isEmpty(), () -> "Provider module " + d.name() + " must open nothing, but opens "
                    + d.opens());
            List<String> ours = d.requires().stream().map(ModuleDescriptor.Requires::name)
                    .filter(n -> n.startsWith("io.quackjvm")).sorted().toList();
            assertEquals(List.of(API), ours, () -> "Provider module " + d.name() + " must require io.quackjvm.api "
                    + "and no other module of ours");
            d.provides().forEach(p -> assertTrue(p.service().startsWith(API + ".spi."),
                    () -> d.name() + " provides " + p.service() + ", which is not one of our SPI types"));
        }));
    }

    /** A class name under {@code io.quackjvm.api} as a class file spells it (in the constant pool). */
    private static final Pattern API_CLASS = Pattern.compile("io/quackjvm/api/([A-Za-z0-9_$/]+)");

    /**
     * Provider modules reach the api only through {@code io.quackjvm.api.spi}: a reference to a user API class
     * (such as {@code ColumnarLayout}) would make a provider depend on what users see, which may change for users'
     * sake. Checked on the built class files, so fully qualified names and descriptors count too.
     */
    @TestFactory
    Stream<DynamicTest> providerModulesUseOnlyTheSpiOfTheApi() throws IOException {
        return goldenArtifacts().stream().map(artifact -> DynamicTest.dynamicTest(artifact, () -> {
            ModuleDescriptor d = builtDescriptor(artifact);
            if (d.provides().isEmpty() || d.name().equals(API)) {
                return;
            }
            Set<String> used = new TreeSet<>();
            try (JarFile jar = new JarFile(jarOf(artifact).toFile())) {
                for (JarEntry entry : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
                    String bytes;
                    try (var in = jar.getInputStream(entry)) {
                        bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                    }
                    Matcher m = API_CLASS.matcher(bytes);
                    while (m.find()) {
                        if (!m.group(1).startsWith("spi/")) {
                            used.add(entry.getName() + " -> " + m.group());
                        }
                    }
                }
            }
            assertTrue(used.isEmpty(), () -> "Provider module " + d.name() + " must use only io.quackjvm.api.spi, "
                    + "but uses " + used);
        }));
    }

    @TestFactory
    Stream<DynamicTest> theApiRequiresNoProviderModule() {
        return Stream.of(DynamicTest.dynamicTest("quackjvm-api", () -> {
            ModuleDescriptor d = builtDescriptor("quackjvm-api");
            List<String> ours = d.requires().stream().map(ModuleDescriptor.Requires::name)
                    .filter(n -> n.startsWith("io.quackjvm")).toList();
            assertTrue(ours.isEmpty(), () -> "io.quackjvm.api must find its providers by ServiceLoader, not require "
                    + ours);
            assertEquals(Set.of(API, API + ".spi"),
                    d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyProvidesIsAlsoRegisteredForTheClassPath() throws IOException {
        return goldenArtifacts().stream().map(artifact -> DynamicTest.dynamicTest(artifact, () -> {
            ModuleDescriptor d = builtDescriptor(artifact);
            try (JarFile jar = new JarFile(jarOf(artifact).toFile())) {
                for (ModuleDescriptor.Provides p : d.provides()) {
                    var entry = jar.getEntry("META-INF/services/" + p.service());
                    assertTrue(entry != null, () -> d.name() + " provides " + p.service() + " but has no META-INF/"
                            + "services file for it, so class-path users will not find it");
                    List<String> listed = new ArrayList<>();
                    try (var in = jar.getInputStream(entry)) {
                        for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                            String s = line.replaceAll("#.*", "").strip();
                            if (!s.isEmpty()) {
                                listed.add(s);
                            }
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    assertEquals(new TreeSet<>(p.providers()), new TreeSet<>(listed), () -> "META-INF/services/"
                            + p.service() + " of " + d.name() + " lists other classes than its module-info");
                }
            }
        }));
    }
}
