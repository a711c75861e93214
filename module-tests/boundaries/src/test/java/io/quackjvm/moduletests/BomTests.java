package io.quackjvm.moduletests;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The BOM ({@code modules/quackjvm-bom}) lists exactly the published artifacts (the modules under
 * {@code modules/} that declare a Java module), each at the project version, and the third-party libraries
 * quackjvm needs newer than CQEngine declares, each at the parent's version; and it has the project's version
 * itself: it has no parent, so nothing else keeps it in step.
 */
class BomTests {

    private static final Path ROOT = Path.of(System.getProperty("quackjvm.root", "../..")).toAbsolutePath().normalize();
    private static final String VERSION = System.getProperty("quackjvm.version", "0.1.0-SNAPSHOT");
    private static final Path BOM = ROOT.resolve("modules/quackjvm-bom/pom.xml");

    private static final Pattern DEPENDENCY = Pattern.compile(
            "<groupId>([^<]+)</groupId><artifactId>([^<]+)</artifactId><version>([^<]+)</version>");

    private static String bom() throws IOException {
        return Files.readString(BOM, StandardCharsets.UTF_8);
    }

    private static Set<String> published() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT.resolve("modules"))) {
            return new TreeSet<>(dirs.filter(d -> Files.exists(d.resolve("src/main/java/module-info.java")))
                    .map(d -> d.getFileName().toString()).toList());
        }
    }

    @Test
    void listsEveryPublishedArtifactAtTheProjectVersionAndNothingElse() throws IOException {
        Matcher m = DEPENDENCY.matcher(bom());
        Set<String> listed = new TreeSet<>();
        while (m.find()) {
            if (!m.group(1).equals("io.quackjvm")) {
                continue;
            }
            assertEquals("${project.version}", m.group(3), () -> m.group(2) + " is not at the project version in " + BOM);
            listed.add(m.group(2));
        }
        Set<String> published = published();
        assertFalse(published.isEmpty(), "no modules found under " + ROOT.resolve("modules"));
        assertEquals(published, listed, () -> BOM + " must list every published artifact (modules/* with a "
                + "module-info.java): add or remove <dependency> lines");
    }

    /**
     * CQEngine 3.6.0 declares older kryo and typetools than quackjvm needs, and a user's project that declares
     * cqengine gets those unless the BOM pins them: it lists exactly those libraries, each at the version the
     * parent builds and tests with.
     */
    @Test
    void pinsTheThirdPartyLibrariesQuackjvmNeedsAtTheParentsVersions() throws IOException {
        String bom = bom();
        String parent = Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8);
        Map<String, String> pinned = new TreeMap<>();
        Matcher m = DEPENDENCY.matcher(bom);
        while (m.find()) {
            if (!m.group(1).equals("io.quackjvm")) {
                pinned.put(m.group(1) + ":" + m.group(2), resolve(bom, m.group(3)));
            }
        }
        Map<String, String> needed = new TreeMap<>(Map.of(
                "com.esotericsoftware:kryo", resolve(parent, "${kryo.version}"),
                "org.objenesis:objenesis", resolve(parent, "${objenesis.version}"),
                "net.jodah:typetools", resolve(parent, "${typetools.version}")));
        assertEquals(needed, pinned, () -> BOM + " must pin kryo, objenesis and typetools at the parent's versions");
    }

    /** The user-shaped projects import the BOM: at the project version, or they test an older quackjvm. */
    @Test
    void theUserShapedProjectsImportTheBomAtTheProjectVersion() throws IOException {
        for (String project : List.of("module-tests/user-build", "module-tests/user-build-modules")) {
            String pom = Files.readString(ROOT.resolve(project + "/pom.xml"), StandardCharsets.UTF_8);
            assertEquals(VERSION, resolve(pom, "${quackjvm.version}"),
                    () -> "set <quackjvm.version> in " + project + "/pom.xml to " + VERSION);
        }
    }

    /** A version as written in a pom, with a {@code ${property}} replaced by that pom's property. */
    private static String resolve(String pom, String version) {
        if (!version.startsWith("${")) {
            return version;
        }
        String property = version.substring(2, version.length() - 1);
        Matcher m = Pattern.compile("<" + Pattern.quote(property) + ">([^<]+)</").matcher(pom);
        assertTrue(m.find(), () -> "no <" + property + "> property");
        return m.group(1).strip();
    }

    @Test
    void hasTheProjectVersion() throws IOException {
        List<String> versions = Pattern.compile("<artifactId>quackjvm-bom</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(bom()).results().map(r -> r.group(1)).toList();
        assertEquals(List.of(VERSION), versions, () -> BOM + " has no parent: set its <version> to " + VERSION);
    }
}
