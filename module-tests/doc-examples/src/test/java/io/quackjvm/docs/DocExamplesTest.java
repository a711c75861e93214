package io.quackjvm.docs;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every {@code ```java} block of README.md and docs/*.md is a region of a source file that the build compiles and
 * runs, word for word, so that an example cannot break or drift without failing the build.
 *
 * <p>In the Markdown, the line before the block (blank lines aside) names the region:
 * {@code <!-- example: path/from/the/root/File.java#region -->}. Any other block may be checked the same way by
 * naming a region (the getting-started page's {@code pom.xml} is). In the source, a region is the lines between
 * {@code tag::region[]} and {@code end::region[]} markers (in a comment, {@code //} or {@code <!-- -->}); a
 * region may be given in several pieces, which are joined, so that the test's own setup and assertions can sit
 * between the lines shown; marker lines are never part of a region. The block must equal the region with its
 * common indentation removed.
 *
 * <p>The regions in Java files of this module are inside the tests of the page they illustrate (ReadmeTest for
 * README.md, AggregatesTest for aggregates.md...), which run them against real DuckDB and check their answers.
 */
class DocExamplesTest {

    static final Path ROOT = Path.of(System.getProperty("quackjvm.root", "../..")).toAbsolutePath().normalize();

    private static final Pattern FENCE = Pattern.compile("^(\\s*)```(\\w*)\\s*$");
    private static final Pattern NAME = Pattern.compile("^\\s*<!--\\s*example:\\s*(\\S+)#([\\w.-]+)\\s*-->\\s*$");
    private static final Pattern MARKER = Pattern.compile("(?:tag|end)::([\\w.-]+)\\[]");

    /** One fenced block of a Markdown file: its language, lines, where it starts, and the region it names. */
    record Block(Path page, int line, String language, List<String> lines, String source, String region) {
        String where() {
            return ROOT.relativize(page) + ":" + line;
        }
    }

    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    static List<Block> blocks(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            int start = i;
            List<String> body = new ArrayList<>();
            for (i++; i < lines.size() && !FENCE.matcher(lines.get(i)).matches(); i++) {
                body.add(lines.get(i));
            }
            assertTrue(i < lines.size(), () -> ROOT.relativize(page) + ":" + (start + 1) + ": a block is not closed");
            String source = null;
            String region = null;
            int before = start - 1;
            while (before >= 0 && lines.get(before).isBlank()) {
                before--;
            }
            if (before >= 0) {
                Matcher name = NAME.matcher(lines.get(before));
                if (name.matches()) {
                    source = name.group(1);
                    region = name.group(2);
                }
            }
            blocks.add(new Block(page, start + 1, open.group(2), body, source, region));
        }
        return blocks;
    }

    /** The lines of a region of a source file, in the order given, its common indentation removed. */
    static List<String> region(Path file, String name) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> region = new ArrayList<>();
        boolean inside = false;
        boolean seen = false;
        for (String line : lines) {
            Matcher m = MARKER.matcher(line);
            if (m.find()) {
                if (m.group(1).equals(name)) {
                    boolean opening = line.contains("tag::" + name + "[]");
                    assertTrue(opening != inside, () -> file + ": region '" + name + "' is "
                            + (opening ? "opened twice" : "closed before it is opened"));
                    inside = opening;
                    seen = true;
                }
                continue;
            }
            if (inside) {
                region.add(line.stripTrailing());
            }
        }
        assertTrue(seen, () -> file + " has no region '" + name + "'");
        assertFalse(inside, () -> file + ": region '" + name + "' is not closed");
        int indent = region.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return region.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList();
    }

    @TestFactory
    Stream<DynamicTest> everyMarkedBlockIsItsRegionWordForWord() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path page : pages()) {
            for (Block b : blocks(page)) {
                if (b.source() == null) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(b.where() + " = " + b.source() + "#" + b.region(), () -> {
                    Path file = ROOT.resolve(b.source()).normalize();
                    assertTrue(Files.isRegularFile(file), () -> b.where() + " names " + b.source()
                            + ", which does not exist");
                    List<String> shown = b.lines().stream().map(String::stripTrailing).toList();
                    assertEquals(String.join("\n", region(file, b.region())), String.join("\n", shown),
                            () -> b.where() + " differs from region '" + b.region() + "' of " + b.source()
                                    + " (expected: the region; actual: the block)");
                }));
            }
        }
        return tests.stream();
    }

    @Test
    void everyJavaBlockNamesTheRegionThatRunsIt() throws IOException {
        List<String> unnamed = new ArrayList<>();
        int java = 0;
        for (Path page : pages()) {
            for (Block b : blocks(page)) {
                if (b.language().equals("java")) {
                    java++;
                    if (b.source() == null) {
                        unnamed.add(b.where());
                    }
                }
            }
        }
        assertTrue(java >= 10, "found only " + java + " java blocks: is the Markdown read?");
        if (!unnamed.isEmpty()) {
            fail("These ```java blocks name no region of a compiled source: put the example in a test (for "
                    + "example module-tests/doc-examples) between tag::name[] and end::name[] comments, and precede "
                    + "the block with <!-- example: path#name -->:\n  " + String.join("\n  ", unnamed));
        }
    }

    /** The checks above would pass on a checker that sees nothing; these show it sees differences. */
    @Test
    void theCheckerReadsRegionsInPiecesAndNoticesADifference(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        Path source = dir.resolve("Example.java");
        Files.writeString(source, String.join("\n",
                "class Example {",
                "    void run() {",
                "        // tag::a[]",
                "        int x = 1;",
                "        // end::a[]",
                "        check(x);",
                "        // tag::a[]",
                "        System.out.println(x);",
                "        // end::a[]",
                "    }",
                "}"));
        assertEquals(List.of("int x = 1;", "System.out.println(x);"), region(source, "a"));
        Path page = dir.resolve("page.md");
        Files.writeString(page, String.join("\n",
                "Text.", "", "<!-- example: Example.java#a -->", "```java", "int x = 2;", "```", "",
                "```java", "y();", "```"));
        List<Block> blocks = blocks(page);
        assertEquals(2, blocks.size());
        assertEquals("Example.java", blocks.get(0).source());
        assertEquals("a", blocks.get(0).region());
        assertEquals(List.of("int x = 2;"), blocks.get(0).lines());
        assertEquals(null, blocks.get(1).source());
    }
}
