package io.quackjvm.moduletests;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The BOM ({@code modules/quackjvm-bom}) lists exactly the published artifacts (the modules under
 * {@code modules/} that declare a Java module), each at the project version, and has the project's version
 * itself: it has no parent, so nothing else keeps it in step.
 */
class BomTests {

    private static final Path ROOT = Path.of(System.getProperty("quackjvm.root", "../..")).toAbsolutePath().normalize();
    private static final String VERSION = System.getProperty("quackjvm.version", "0.1.0-SNAPSHOT");
    private static final Path BOM = ROOT.resolve("modules/quackjvm-bom/pom.xml");

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
        Matcher m = Pattern.compile("<artifactId>([^<]+)</artifactId><version>([^<]+)</version>").matcher(bom());
        Set<String> listed = new TreeSet<>();
        while (m.find()) {
            assertEquals("${project.version}", m.group(2), () -> m.group(1) + " is not at the project version in " + BOM);
            listed.add(m.group(1));
        }
        Set<String> published = published();
        assertFalse(published.isEmpty(), "no modules found under " + ROOT.resolve("modules"));
        assertEquals(published, listed, () -> BOM + " must list every published artifact (modules/* with a "
                + "module-info.java): add or remove <dependency> lines");
    }

    @Test
    void hasTheProjectVersion() throws IOException {
        List<String> versions = Pattern.compile("<artifactId>quackjvm-bom</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(bom()).results().map(r -> r.group(1)).toList();
        assertEquals(List.of(VERSION), versions, () -> BOM + " has no parent: set its <version> to " + VERSION);
    }
}
