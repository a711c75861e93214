package io.quackjvm.it.reliability;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Starts a real child JVM running a main class of this test tree, on a plain class path made of everything the
 * test JVM can see: its module path (surefire runs these tests on it), its class path, and the jars a
 * manifest-only booter jar points to (surefire's fallback when a command line would be too long), plus this
 * class's own code location (the test classes, which surefire patches into the module under test).
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    public static List<String> command(Class<?> mainClass, List<String> jvmOptions, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(mainClass.getName());
        cmd.addAll(args);
        return cmd;
    }

    static String classPath() {
        Set<String> entries = new LinkedHashSet<>();
        try {
            entries.add(Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        } catch (URISyntaxException | RuntimeException e) {
            // not a file location (a patched module can report jrt:/); the target folder below is the fallback
        }
        Path testClasses = Path.of(System.getProperty("user.dir"), "target", "test-classes");
        if (Files.isDirectory(testClasses)) {
            entries.add(testClasses.toString());
        }
        for (String property : new String[]{"jdk.module.path", "java.class.path", "jdk.module.upgrade.path"}) {
            String value = System.getProperty(property);
            if (value == null || value.isBlank()) {
                continue;
            }
            for (String entry : value.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    addExpanded(Path.of(entry), entries);
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void addExpanded(Path entry, Set<String> entries) {
        String name = entry.getFileName() == null ? "" : entry.getFileName().toString();
        if (name.startsWith("surefire") && name.endsWith(".jar")) {
            try (JarFile jar = new JarFile(entry.toFile())) {
                Manifest manifest = jar.getManifest();
                String classPath = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
                if (classPath != null) {
                    for (String url : classPath.trim().split("\\s+")) {
                        entries.add(Path.of(entry.toUri().resolve(URI.create(url))).toString());
                    }
                }
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalStateException("Cannot read the class path of " + entry, e);
            }
            return;
        }
        if (Files.exists(entry)) {
            // a directory of jars on a module path stands for every jar in it
            if (Files.isDirectory(entry) && !Files.exists(entry.resolve("module-info.class"))
                    && isJarFolder(entry)) {
                try (var jars = Files.list(entry)) {
                    jars.filter(j -> j.toString().endsWith(".jar")).forEach(j -> entries.add(j.toString()));
                } catch (IOException e) {
                    throw new IllegalStateException("Cannot list " + entry, e);
                }
            } else {
                entries.add(entry.toString());
            }
        }
    }

    private static boolean isJarFolder(Path dir) {
        try (var files = Files.list(dir)) {
            List<Path> all = files.toList();
            return !all.isEmpty() && all.stream().allMatch(p -> p.toString().endsWith(".jar"));
        } catch (IOException e) {
            return false;
        }
    }
}
