package io.quackjvm.testkit;

import io.quackjvm.api.spi.Provider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every provider must do, whatever its type. Not used directly: extend the contract of your SPI type.
 *
 * @param <P> the SPI type
 */
public abstract class ProviderContract<P extends Provider> {

    /** A new instance of the provider under test, as {@link ServiceLoader} would create it. */
    protected abstract P provider();

    /**
     * The one provider of {@code type} named {@code name} that {@link ServiceLoader} finds from here, for
     * running the kit against a provider whose class is not exported (as all of quackjvm's own are).
     *
     * @throws AssertionError naming what was found when there is not exactly one
     */
    protected static <T extends Provider> T discovered(Class<T> type, String name) {
        List<T> matching = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (T candidate : ServiceLoader.load(type, ProviderContract.class.getClassLoader())) {
            seen.add("'" + candidate.name() + "' (" + candidate.getClass().getName() + ")");
            if (name.equals(candidate.name())) {
                matching.add(candidate);
            }
        }
        assertEquals(1, matching.size(), () -> "Expected exactly one " + type.getSimpleName() + " named '" + name
                + "'; ServiceLoader found " + seen);
        return matching.get(0);
    }

    @Test
    public void nameIsShortLowerCaseAndStable() {
        P provider = provider();
        String name = provider.name();
        assertNotNull(name, "name() must not return null");
        assertTrue(name.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*"), () -> "name() must be lower case words joined by "
                + "hyphens, like 'json-text', but " + provider.getClass().getName() + " returns '" + name + "'");
        assertTrue(name.length() <= 32, () -> "name() must be short (at most 32 characters): '" + name + "'");
        assertEquals(name, provider.name(), "name() must return the same value every time");
        assertEquals(name, provider().name(), "Every instance must have the same name");
    }

    @Test
    public void hasAPublicNoArgumentConstructorForServiceLoader() throws Exception {
        Class<?> type = provider().getClass();
        assertTrue(java.lang.reflect.Modifier.isPublic(type.getModifiers()),
                () -> type.getName() + " must be public to be found by ServiceLoader");
        boolean hasProviderMethod = false;
        try {
            hasProviderMethod = java.lang.reflect.Modifier.isStatic(type.getMethod("provider").getModifiers());
        } catch (NoSuchMethodException e) {
            // then it needs the constructor
        }
        if (!hasProviderMethod) {
            assertTrue(java.lang.reflect.Modifier.isPublic(type.getConstructor().getModifiers()),
                    () -> type.getName() + " needs a public no-argument constructor (or a public static provider() "
                            + "method) to be found by ServiceLoader");
        }
    }
}
