package io.quackjvm.publicapi;

import japicmp.cmp.JApiCmpArchive;
import japicmp.cmp.JarArchiveComparator;
import japicmp.cmp.JarArchiveComparatorOptions;
import japicmp.config.Options;
import japicmp.model.AccessModifier;
import japicmp.model.JApiClass;
import japicmp.output.OutputFilter;
import japicmp.output.stdout.StdoutOutputGenerator;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The public API budget. For every module under {@code modules/}, the packages its descriptor exports (to
 * everyone) are compared by japicmp with the baseline recorded in {@code api-baseline/<artifact>.jar}: any type,
 * method, constructor or field that is public or protected and was added, removed or changed fails the test,
 * breaking or not, so that every change to the exported API is a deliberate one.
 *
 * <p>Recording a deliberate change (the command is also in {@code api-baseline/README.md}):
 * <pre>
 * mvn -B package -pl module-tests/public-api -am -Dtest=PublicApiTest -Dsurefire.failIfNoSpecifiedTests=false -Dquackjvm.recordApi=true
 * </pre>
 * which builds the modules, then writes each baseline jar from the jar just built (the class files of the exported
 * packages only); review {@code git diff --stat api-baseline/} and commit the baseline with the change.
 */
class PublicApiTest {

    static final String RECORD_COMMAND = "mvn -B package -pl module-tests/public-api -am -Dtest=PublicApiTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dquackjvm.recordApi=true";

    private static final Path ROOT = Path.of(System.getProperty("quackjvm.root", "../..")).toAbsolutePath().normalize();
    private static final String VERSION = System.getProperty("quackjvm.version", "0.1.0-SNAPSHOT");
    private static final Path BASELINE = ROOT.resolve("api-baseline");
    private static final boolean RECORD = Boolean.getBoolean("quackjvm.recordApi");
    /** One fixed time for every baseline entry, so that recording an unchanged API rewrites nothing. */
    private static final FileTime EPOCH = FileTime.fromMillis(0);

    private static Path jarOf(String artifact) {
        return ROOT.resolve("modules").resolve(artifact).resolve("target").resolve(artifact + "-" + VERSION + ".jar");
    }

    private static Path baselineOf(String artifact) {
        return BASELINE.resolve(artifact + ".jar");
    }

    /** The artifacts under modules/ that declare a module. */
    private static List<String> declaredArtifacts() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT.resolve("modules"))) {
            return dirs.filter(d -> Files.exists(d.resolve("src/main/java/module-info.java")))
                    .map(d -> d.getFileName().toString()).sorted().toList();
        }
    }

    /** The packages the built module exports to everyone (a qualified export is no public API). */
    private static Set<String> exportedPackages(Path jar) {
        Set<ModuleReference> refs = ModuleFinder.of(jar).findAll();
        assertEquals(1, refs.size(), () -> jar + " holds " + refs.size() + " modules");
        return refs.iterator().next().descriptor().exports().stream().filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String packageOf(String entryName) {
        int slash = entryName.lastIndexOf('/');
        return slash < 0 ? "" : entryName.substring(0, slash).replace('/', '.');
    }

    /** Writes the class files of {@code packages} from {@code jar} to {@code baseline}, in name order, with fixed times. */
    private static void record(Path jar, Set<String> packages, Path baseline) throws IOException {
        Files.createDirectories(baseline.getParent());
        Path tmp = baseline.resolveSibling(baseline.getFileName() + ".tmp");
        try (JarFile in = new JarFile(jar.toFile());
             JarOutputStream out = new JarOutputStream(Files.newOutputStream(tmp))) {
            List<JarEntry> entries = in.stream().filter(e -> e.getName().endsWith(".class"))
                    .filter(e -> packages.contains(packageOf(e.getName())))
                    .sorted((a, b) -> a.getName().compareTo(b.getName())).toList();
            for (JarEntry e : entries) {
                JarEntry copy = new JarEntry(e.getName());
                copy.setLastModifiedTime(EPOCH);
                out.putNextEntry(copy);
                try (var bytes = in.getInputStream(e)) {
                    bytes.transferTo(out);
                }
                out.closeEntry();
            }
        }
        Files.move(tmp, baseline, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The public and protected changes between {@code baseline} and {@code jar} in {@code packages}, as japicmp prints them. */
    static String changes(Path baseline, Path jar, Set<String> packages) {
        Options options = Options.newDefault();
        options.setAccessModifier(AccessModifier.PROTECTED);
        options.setOutputOnlyModifications(true);
        JarArchiveComparatorOptions comparatorOptions = JarArchiveComparatorOptions.of(options);
        // the built jar and the test class path (CQEngine, JUnit, java.sql...) resolve what the signatures name
        comparatorOptions.getClassPathEntries().add(jar.toString());
        comparatorOptions.getClassPathEntries().addAll(Arrays.asList(
                System.getProperty("java.class.path").split(File.pathSeparator)));
        List<JApiClass> classes = new ArrayList<>(new JarArchiveComparator(comparatorOptions).compare(
                new JApiCmpArchive(baseline.toFile(), "baseline"), new JApiCmpArchive(jar.toFile(), VERSION)));
        classes.removeIf(c -> !packages.contains(packageOf(c.getFullyQualifiedName().replace('.', '/'))));
        new OutputFilter(options).filter(classes);
        if (classes.isEmpty()) {
            return "";
        }
        String report = new StdoutOutputGenerator(options, classes).generate();
        // japicmp's first line names the two files compared; "===" marks what did not change
        return report.lines().filter(l -> !l.startsWith("Comparing ") && !l.strip().startsWith("===")
                && !l.contains(": ===")).collect(Collectors.joining("\n")).strip();
    }

    @TestFactory
    Stream<DynamicTest> theExportedPackagesMatchTheRecordedBaseline() throws IOException {
        return declaredArtifacts().stream().map(artifact -> DynamicTest.dynamicTest(artifact, () -> {
            Path jar = jarOf(artifact);
            assertTrue(Files.exists(jar), () -> jar + " has not been built; run 'mvn verify' from the root (or "
                    + RECORD_COMMAND.replace(" -Dquackjvm.recordApi=true", "") + ")");
            Set<String> packages = exportedPackages(jar);
            Path baseline = baselineOf(artifact);
            if (packages.isEmpty()) {
                if (RECORD) {
                    Files.deleteIfExists(baseline);
                }
                assertFalse(Files.exists(baseline), () -> artifact + " exports nothing, but " + ROOT.relativize(baseline)
                        + " records an API for it; delete it, or record again with: " + RECORD_COMMAND);
                return;
            }
            if (RECORD) {
                record(jar, packages, baseline);
            }
            if (!Files.exists(baseline)) {
                fail(artifact + " exports " + packages + " but no API is recorded for it in "
                        + ROOT.relativize(baseline) + ". Record it with:\n  " + RECORD_COMMAND);
            }
            String changes = changes(baseline, jar, packages);
            if (!changes.isEmpty()) {
                fail("The public API of " + artifact + " (exported packages " + packages + ") differs from the "
                        + "recorded baseline " + ROOT.relativize(baseline) + ":\n\n" + changes + "\n\n"
                        + "Every change to an exported package must be deliberate. If this one is, record it and "
                        + "commit api-baseline/ with the change:\n  " + RECORD_COMMAND + "\n"
                        + "(and list a user-visible change in CHANGELOG.md; mark it Breaking if users must change "
                        + "their code).");
            }
        }));
    }

    /** No baseline is left behind for a module that is gone. */
    @Test
    void everyBaselineBelongsToAModule() throws IOException {
        List<String> artifacts = declaredArtifacts();
        try (Stream<Path> files = Files.list(BASELINE)) {
            List<String> orphans = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar"))
                    .map(n -> n.substring(0, n.length() - ".jar".length())).filter(a -> !artifacts.contains(a))
                    .sorted().toList();
            assertEquals(List.of(), orphans, "api-baseline/ holds the API of modules that no longer exist");
        }
    }
}
