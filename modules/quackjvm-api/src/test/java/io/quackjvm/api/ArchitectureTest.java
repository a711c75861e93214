package io.quackjvm.api;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's package map and the direction of its dependencies: the exported façade ({@code io.quackjvm.api})
 * delegates to the engine ({@code io.quackjvm.api.internal.*}), the engine uses only the façade's exceptions and
 * value types and the SPI, and every engine class lives in one of the rooms named in {@code docs/architecture.md},
 * each with a {@code package-info.java} saying what it owns.
 */
class ArchitectureTest {

    /** The engine's rooms; {@code docs/architecture.md} shows the same map. */
    static final List<String> ROOMS = List.of("database", "collection", "query", "index", "result", "answer");

    /** Types of the exported user package that the engine may use: values and callbacks it hands to users. */
    private static final List<Class<?>> ENGINE_MAY_USE = List.of(DuckDBFlags.class, ObjectCacheStats.class, ExportSummary.class,
            Progress.class, ProgressListener.class, Operation.class, OperationListener.class, DuckDBOptions.class,
            ConnectionPoolStats.class);

    private static final Path SOURCES = Path.of("src/main/java/io/quackjvm/api");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.quackjvm.api");
    }

    @Test
    void theImportSeesTheEngineAndTheFacade() {
        assertTrue(classes.contain(DuckDBPersistence.class));
        assertTrue(classes.stream().anyMatch(c -> c.getPackageName().startsWith("io.quackjvm.api.internal.")),
                "no engine class was imported");
    }

    @Test
    void theEngineUsesOnlyTheFacadesExceptionsAndValueTypes() {
        DescribedPredicate<JavaClass> facade = new DescribedPredicate<>("a façade class of io.quackjvm.api "
                + "(anything there but exceptions and " + ENGINE_MAY_USE.stream().map(Class::getSimpleName).toList()
                + ")") {
            @Override
            public boolean test(JavaClass c) {
                JavaClass outer = c;
                while (outer.getEnclosingClass().isPresent()) {
                    outer = outer.getEnclosingClass().get();
                }
                JavaClass top = outer;
                return top.getPackageName().equals("io.quackjvm.api") && !top.isAssignableTo(Throwable.class)
                        && ENGINE_MAY_USE.stream().noneMatch(top::isEquivalentTo);
            }
        };
        noClasses().that().resideInAPackage("io.quackjvm.api.internal..").should().dependOnClassesThat(facade)
                .check(classes);
    }

    @Test
    void everyEngineClassLivesInARoom() {
        String[] rooms = ROOMS.stream().map(r -> "io.quackjvm.api.internal." + r).toArray(String[]::new);
        classes().that().resideInAPackage("io.quackjvm.api.internal..").should().resideInAnyPackage(rooms)
                .check(classes);
    }

    @Test
    void everyRoomSaysWhatItOwns() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(SOURCES.resolve("internal"))) {
            dirs.filter(Files::isDirectory).forEach(d -> found.add(d.getFileName().toString()));
        }
        assertEquals(ROOMS.stream().sorted().toList(), found.stream().sorted().toList(),
                "the rooms of io.quackjvm.api.internal");
        for (String room : ROOMS) {
            Path info = SOURCES.resolve("internal").resolve(room).resolve("package-info.java");
            assertTrue(Files.isRegularFile(info) && Files.readString(info).contains("/**"),
                    room + " has no package-info.java saying what it owns");
        }
    }
}
