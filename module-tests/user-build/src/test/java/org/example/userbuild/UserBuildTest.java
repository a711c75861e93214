package org.example.userbuild;

import com.esotericsoftware.kryo.Kryo;
import com.googlecode.cqengine.ConcurrentIndexedCollection;
import com.googlecode.cqengine.IndexedCollection;
import com.googlecode.cqengine.resultset.ResultSet;
import io.quackjvm.api.DuckDBIndex;
import io.quackjvm.api.DuckDBPersistence;
import net.jodah.typetools.TypeResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objenesis.Objenesis;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static com.googlecode.cqengine.query.QueryFactory.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A project that declares {@code cqengine} and then {@code quackjvm}, and imports quackjvm's BOM, gets the
 * libraries quackjvm needs rather than the older ones CQEngine declares, and works: objects with a UUID field
 * are stored and read back through the blob layout, and attributes made from lambdas resolve and are queried.
 */
class UserBuildTest {

    private static final Path ROOT = Path.of(System.getProperty("quackjvm.root", "../..")).toAbsolutePath().normalize();

    @TempDir
    Path dir;

    /** The version quackjvm's parent pom builds and tests with, for one of its version properties. */
    private static String libraryVersion(String property) throws IOException {
        String pom = Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<" + Pattern.quote(property) + ">([^<]+)</").matcher(pom);
        assertTrue(m.find(), () -> "no <" + property + "> in " + ROOT.resolve("pom.xml"));
        return m.group(1).strip();
    }

    /**
     * The version of the jar a class was loaded from: its Maven {@code pom.properties} when it has one, else its
     * manifest's {@code Implementation-Version} or {@code Bundle-Version}.
     */
    private static String versionOfJarOf(Class<?> type, String groupId, String artifactId)
            throws IOException, URISyntaxException {
        var source = type.getProtectionDomain().getCodeSource();
        assertNotNull(source, () -> type + " has no code source");
        Path jar = Path.of(source.getLocation().toURI());
        assertTrue(Files.isRegularFile(jar), () -> type + " was not loaded from a jar but from " + jar);
        try (JarFile file = new JarFile(jar.toFile())) {
            var entry = file.getEntry("META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties");
            if (entry != null) {
                Properties p = new Properties();
                try (InputStream in = file.getInputStream(entry)) {
                    p.load(in);
                }
                return p.getProperty("version");
            }
            Manifest manifest = file.getManifest();
            assertNotNull(manifest, () -> jar + " has neither pom.properties nor a manifest");
            String version = manifest.getMainAttributes().getValue("Implementation-Version");
            return version != null ? version : manifest.getMainAttributes().getValue("Bundle-Version");
        }
    }

    @Test
    void theBuildResolvesTheKryoObjenesisAndTypetoolsQuackjvmNeeds() throws Exception {
        assertEquals(libraryVersion("kryo.version"), versionOfJarOf(Kryo.class, "com.esotericsoftware", "kryo"),
                "kryo on the class path (CQEngine 3.6.0 declares 5.0.0-RC1; the BOM must pin quackjvm's)");
        assertEquals(libraryVersion("typetools.version"),
                versionOfJarOf(TypeResolver.class, "net.jodah", "typetools"),
                "typetools on the class path (CQEngine 3.6.0 declares 0.6.1; the BOM must pin quackjvm's)");
        String objenesis = libraryVersion("objenesis.version");
        assertEquals(objenesis, versionOfJarOf(Objenesis.class, "org.objenesis", "objenesis"), "objenesis on the "
                + "class path");
    }

    @Test
    void objectsWithAUuidFieldAreStoredAndReadBackThroughTheBlobLayout() {
        List<Order> orders = LongStream.rangeClosed(1, 1_000).mapToObj(Order::of).toList();
        Path file = dir.resolve("orders.duckdb");
        try (DuckDBPersistence<Order, Long> p = DuckDBPersistence.builder(Order.ID).file(file).layout("blob")
                .build()) {
            IndexedCollection<Order> c = new ConcurrentIndexedCollection<>(p);
            c.addAll(orders);          // large: through DuckDB's Appender
            c.add(Order.of(1_001));    // small: a prepared INSERT
        }
        try (DuckDBPersistence<Order, Long> p = DuckDBPersistence.builder(Order.ID).file(file).build()) {
            IndexedCollection<Order> c = new ConcurrentIndexedCollection<>(p);
            Set<Order> expected = new HashSet<>(orders);
            expected.add(Order.of(1_001));
            assertEquals(expected, new HashSet<>(c));
        }
    }

    @Test
    void attributesMadeFromLambdasResolveAndAreQueried() {
        assertEquals(Long.class, Order.Lambdas.ORDER_ID.getAttributeType());
        assertEquals(Order.class, Order.Lambdas.ORDER_ID.getObjectType());
        assertEquals(String.class, Order.Lambdas.ITEM.getAttributeType());
        try (DuckDBPersistence<Order, Long> p = DuckDBPersistence.builder(Order.Lambdas.ORDER_ID).build()) {
            IndexedCollection<Order> c = new ConcurrentIndexedCollection<>(p);
            c.addIndex(DuckDBIndex.onAttribute(Order.Lambdas.ITEM));
            c.addAll(LongStream.rangeClosed(1, 700).mapToObj(Order::of).toList());
            try (ResultSet<Order> rs = c.retrieve(equal(Order.Lambdas.ORDER_ID, 42L))) {
                assertEquals(List.of(Order.of(42)), rs.stream().toList());
            }
            try (ResultSet<Order> rs = c.retrieve(equal(Order.Lambdas.ITEM, "item-3"))) {
                assertEquals(LongStream.rangeClosed(1, 700).filter(i -> i % 7 == 3).boxed().collect(Collectors.toSet()),
                        rs.stream().map(Order::orderId).collect(Collectors.toSet()));
            }
        }
    }
}
