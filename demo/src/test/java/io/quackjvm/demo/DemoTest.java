package io.quackjvm.demo;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo runs end to end (on fewer cars than the README's command), answers right, and prints progress once. */
class DemoTest {

    private static final int CARS = 20_000;

    @Test
    void theDemoRunsAndAnswersWhatItsLabelsAsk() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(both);
        System.setErr(both);
        try {
            Demo.main(new String[] {Integer.toString(CARS)});
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        String printed = captured.toString(StandardCharsets.UTF_8);
        out.print(printed);
        List<Demo.Car> cars = Demo.generate(CARS, 42);
        assertEquals(Long.toString(cars.stream().filter(c -> c.price() < 30_000).count()),
                answer(printed, "count of cars priced under 30,000"));
        assertEquals(Integer.toString(CARS), answer(printed, "how many cars are stored?"));
        assertEquals("1000 found", answer(printed, "find 1,000 random cars by id"));
        assertEquals(cars.stream().filter(c -> c.manufacturer().equals("Ford") && c.price() >= 20_000
                        && c.price() <= 21_000 && c.year() >= 2020).count() + " cars",
                answer(printed, "Fords priced 20,000-21,000 built from 2020"));

        List<String> progress = printed.lines().filter(l -> l.contains("bulk load of collection")).toList();
        assertFalse(progress.isEmpty(), printed);
        Set<String> steps = new HashSet<>();
        for (String line : progress) {
            assertTrue(line.startsWith("    progress: "), () -> "progress reported other than by the listener: " + line);
            assertTrue(steps.add(line.strip()), () -> "printed twice: " + line);
        }
        assertTrue(printed.contains("(finished)"), printed);
    }

    /** What the demo printed after the arrow of the step whose label starts with {@code label}. */
    private static String answer(String printed, String label) {
        List<String> lines = printed.lines().filter(l -> l.startsWith(label)).toList();
        assertEquals(1, lines.size(), () -> "no single step labelled '" + label + "' in:\n" + printed);
        String line = lines.get(0);
        return line.substring(line.indexOf("-> ") + 3).strip();
    }
}
