package io.quackjvm.moduletests;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine treats every provider alike: no source of the api module (the engine and its façade) compares a
 * provider's name, so that what a shipped provider gets (push-down on its columns, say) a third-party provider
 * gets by declaring the same capability through the SPI. The names are read from the shipped providers' own
 * sources, so a new provider is covered without editing this test.
 */
class ProviderNeutralityTests {

    private static final Path ROOT = Path.of(System.getProperty("quackjvm.root", "../..")).toAbsolutePath().normalize();
    private static final Pattern NAME = Pattern.compile(
            "public String name\\(\\)\\s*\\{\\s*return\\s+\"([a-z0-9-]+)\"\\s*;");

    private static List<Path> sources(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".java")).toList();
        }
    }

    private static List<String> providerNames() throws IOException {
        List<String> names = new ArrayList<>();
        for (Path p : sources(ROOT.resolve("modules"))) {
            if (p.getFileName().toString().endsWith("Provider.java")) {
                Matcher m = NAME.matcher(Files.readString(p));
                if (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    @Test
    void theShippedProvidersAreFound() throws IOException {
        List<String> names = providerNames();
        assertTrue(names.containsAll(List.of("blob", "columnar", "jdbc", "arrow", "duplicating")), names.toString());
    }

    @Test
    void noApiSourceComparesAProvidersName() throws IOException {
        List<String> found = new ArrayList<>();
        for (String name : providerNames()) {
            String quoted = Pattern.quote("\"" + name + "\"");
            Pattern comparison = Pattern.compile(quoted + "\\s*\\.\\s*equals|equals(IgnoreCase)?\\(\\s*" + quoted
                    + "\\s*\\)|case\\s+" + quoted + "|[=!]=\\s*" + quoted + "|" + quoted + "\\s*[=!]=");
            for (Path p : sources(ROOT.resolve("modules/quackjvm-api/src/main/java"))) {
                List<String> lines = Files.readAllLines(p);
                for (int i = 0; i < lines.size(); i++) {
                    if (comparison.matcher(lines.get(i)).find()) {
                        found.add(ROOT.relativize(p) + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertEquals(List.of(), found, "engine code that branches on a provider's name; declare the capability "
                + "in the SPI instead");
    }
}
