package io.quackjvm.moduletests;

import java.io.File;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/** The jar (or directory) of every module on this test JVM's module path and class path, by module name. */
final class ModuleJars {

    private ModuleJars() {
    }

    static Map<String, Path> ofThisJvm() {
        Map<String, Path> byName = new LinkedHashMap<>();
        Stream.of(System.getProperty("jdk.module.path", ""), System.getProperty("java.class.path", ""))
                .flatMap(p -> Stream.of(p.split(File.pathSeparator)))
                .filter(s -> !s.isBlank())
                .map(Path::of)
                .filter(Files::exists)
                .forEach(path -> {
                    try {
                        for (ModuleReference ref : ModuleFinder.of(path).findAll()) {
                            byName.putIfAbsent(ref.descriptor().name(), path);
                        }
                    } catch (FindException e) {
                        // not a module (e.g. a jar whose file name yields no automatic module name): not ours
                    }
                });
        return byName;
    }
}
