package io.quackjvm.api;

import io.quackjvm.api.spi.ColumnarDescription;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
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
 * The exported packages hold API, not machinery: no class in them names a provider's classes (Arrow's belong to
 * the Arrow reader) or makes users' members accessible (the reflection behind columnar layouts lives in the
 * non-exported {@code io.quackjvm.api.layout}), and the SPI does not depend on the user API.
 */
class ExportedPackagesTest {

    private static List<Path> classesOf(Class<?> anyClassOfThePackage) throws IOException, URISyntaxException {
        Path root = Path.of(anyClassOfThePackage.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve(anyClassOfThePackage.getPackageName().replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
    }

    private static List<String> referencing(List<Path> classes, String... needles) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path c : classes) {
            // class, method and string constants are stored as (modified) UTF-8 in the constant pool
            String text = new String(Files.readAllBytes(c), StandardCharsets.ISO_8859_1);
            for (String needle : needles) {
                if (text.contains(needle)) {
                    found.add(c.getFileName() + " -> " + needle);
                }
            }
        }
        return found;
    }

    /** A provider compiles against the SPI alone: no SPI class refers to a class of the user API. */
    @Test
    void theSpiDoesNotDependOnTheUserApi() throws Exception {
        List<Path> spi = classesOf(ColumnarDescription.class);
        List<String> found = new ArrayList<>();
        Pattern userApi = Pattern.compile("io/quackjvm/api/[A-Z][A-Za-z0-9_$]*");
        for (Path c : spi) {
            Matcher m = userApi.matcher(new String(Files.readAllBytes(c), StandardCharsets.ISO_8859_1));
            while (m.find()) {
                found.add(c.getFileName() + " -> " + m.group());
            }
        }
        assertTrue(spi.size() > 10, "the scan must see the SPI's classes: " + spi);
        assertEquals(List.of(), found);
    }

    @Test
    void noExportedClassNamesArrowOrReflectsIntoUsersClasses() throws Exception {
        List<Path> classes = new ArrayList<>(classesOf(ArrowSupport.class));
        classes.addAll(classesOf(ColumnarDescription.class));
        assertTrue(classes.stream().anyMatch(p -> p.getFileName().toString().equals("ColumnarLayout.class")),
                "the scan must see the exported classes: " + classes);
        assertEquals(List.of(), referencing(classes, "org/apache/arrow", "org.apache.arrow", "setAccessible",
                "getRecordComponents", "getDeclaredFields"));
    }
}
