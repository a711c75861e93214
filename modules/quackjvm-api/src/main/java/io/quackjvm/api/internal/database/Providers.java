package io.quackjvm.api.internal.database;

import io.quackjvm.api.ProviderException;
import io.quackjvm.api.spi.Provider;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds providers with {@link ServiceLoader}, keeping a record of every candidate and why it was rejected so
 * that a failed lookup can say exactly what it saw.
 */
public final class Providers<P extends Provider> {

    private static final Logger LOG = LoggerFactory.getLogger(Providers.class);

    private final Class<P> type;
    private final List<P> loaded = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    private Providers(Class<P> type) {
        this.type = type;
    }

    /**
     * What {@link #load(Class)} found for each type: looked up once per process, because a {@link ServiceLoader}
     * lookup costs ~0.3-1.6 ms each (the readers, the pool, the write policy and the layout: ~3 ms for every
     * database opened). A provider is thread-safe after construction (spi-docs), so one instance serves every
     * database.
     */
    private static final Map<Class<?>, Providers<?>> FOUND = new ConcurrentHashMap<>();

    /**
     * Every provider of {@code type} visible to the api module (module path or class path), found the first time
     * and the same instances from then on.
     */
    @SuppressWarnings("unchecked")
    public static <P extends Provider> Providers<P> load(Class<P> type) {
        Providers<P> found = (Providers<P>) FOUND.computeIfAbsent(type,
                t -> load(type, ServiceLoader.load(type, Providers.class.getClassLoader())));
        Providers<P> copy = new Providers<>(type);
        copy.loaded.addAll(found.loaded);
        copy.failures.addAll(found.failures);
        return copy;
    }

    /** Loads from a given loader; used by tests and by {@link #load(Class)}. */
    public static <P extends Provider> Providers<P> load(Class<P> type, Iterable<P> loader) {
        Providers<P> providers = new Providers<>(type);
        Iterator<P> it = loader.iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                providers.loaded.add(it.next());
            } catch (ServiceConfigurationError e) {
                // A provider whose constructor throws is reported, never silently skipped.
                Throwable cause = e.getCause() == null ? e : e.getCause();
                String failure = e.getMessage() + (cause != e ? " (" + cause + ")" : "");
                providers.failures.add(failure);
                // Reported even when another provider serves the lookup: a broken provider is never silent.
                LOG.warn("A {} could not be loaded and is ignored: {}", type.getSimpleName(), failure);
            }
        }
        return providers;
    }

    /** The providers that loaded, in discovery order. */
    public List<P> all() {
        return List.copyOf(loaded);
    }

    /**
     * The one provider named {@code name}, or a {@link ProviderException} listing what was found when there is
     * none or more than one.
     */
    public P named(String name) {
        List<P> matching = new ArrayList<>();
        for (P provider : loaded) {
            if (name.equals(provider.name())) {
                matching.add(provider);
            }
        }
        if (matching.size() == 1) {
            return matching.get(0);
        }
        if (matching.isEmpty()) {
            throw new ProviderException("No " + type.getSimpleName() + " named '" + name + "' was found. "
                    + describe() + " Put the module that provides it on the module path (or its jar on the class "
                    + "path), or pass a provider instance to the builder.");
        }
        throw new ProviderException("Several " + type.getSimpleName() + "s are named '" + name + "': "
                + describeAll(matching) + ". Remove all but one from the path, or pass the one you want to the "
                + "builder explicitly.");
    }

    /** A sentence listing every provider found and every one that failed to load. */
    public String describe() {
        StringBuilder sb = new StringBuilder("Found ");
        sb.append(loaded.isEmpty() ? "no " + type.getSimpleName() + " providers" : describeAll(loaded)).append('.');
        if (!failures.isEmpty()) {
            sb.append(" Failed to load: ").append(String.join("; ", failures)).append('.');
        }
        return sb.toString();
    }

    /** Records a provider that loaded but cannot be used, for {@link #describe()}. */
    public void reject(P provider, String reason) {
        loaded.remove(provider);
        failures.add(provider.getClass().getName() + " ('" + provider.name() + "'): " + reason);
    }

    private static String describeAll(List<? extends Provider> providers) {
        List<String> parts = new ArrayList<>();
        for (Provider p : providers) {
            parts.add("'" + p.name() + "' (" + p.getClass().getName() + ")");
        }
        return String.join(", ", parts);
    }
}
