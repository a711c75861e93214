package io.quackjvm.bench.harness;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The headline tables of the README and docs/benchmarks.md are what the committed results/current/ gives. */
class HeadlineTest {

    @Test
    void docsTablesEqualTheGeneratedOnes() throws Exception {
        List<String> problems = Headline.check(Path.of("..").toAbsolutePath().normalize());
        assertEquals(List.of(), problems, String.join("\n", problems));
    }

    @Test
    void stampsEveryKindOfFileOnce() {
        List<String[]> facts = List.of(new String[] {"commit", "abc"}, new String[] {"command", "java X --y"});
        String md = Stamp.stamped("a.md", "# T\n", facts);
        assertTrue(md.contains(Stamp.MARKER) && md.endsWith("# T\n"), md);
        String json = Stamp.stamped("a.json", "{\n  \"a\": 1\n}\n", facts);
        assertTrue(json.startsWith("{\n  \"" + Stamp.MARKER + "\": {\"commit\": \"abc\", \"command\": \"java X --y\"},"), json);
        String csv = Stamp.stamped("a.csv", "x,y\n", facts);
        assertTrue(csv.startsWith("# " + Stamp.MARKER + "\n# commit: abc\n") && csv.endsWith("x,y\n"), csv);
        String svg = Stamp.stamped("a.svg", "<svg/>", facts);
        assertTrue(svg.startsWith("<!-- " + Stamp.MARKER) && svg.contains("- -y") && svg.endsWith("<svg/>"), svg);
    }
}
