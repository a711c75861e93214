package io.quackjvm.api.internal.database;

import io.quackjvm.api.ProviderException;
import io.quackjvm.api.spi.WritePolicyProvider;
import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.ServiceConfigurationError;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/** Wiring of provider lookup: which provider is chosen, and what a failed lookup says. */
class ProvidersTest {

    private static WritePolicyProvider provider(String name) {
        WritePolicyProvider p = mock(WritePolicyProvider.class);
        when(p.name()).thenReturn(name);
        return p;
    }

    @Test
    void exactlyOneProviderWithTheNameIsChosen() {
        WritePolicyProvider wanted = provider("per-collection");
        Providers<WritePolicyProvider> providers = Providers.load(WritePolicyProvider.class,
                List.of(provider("other"), wanted));
        assertSame(wanted, providers.named("per-collection"));
    }

    @Test
    void noProviderWithTheNameListsWhatWasFound() {
        Providers<WritePolicyProvider> providers = Providers.load(WritePolicyProvider.class, List.of(provider("other")));
        ProviderException e = assertThrows(ProviderException.class, () -> providers.named("per-collection"));
        assertTrue(e.getMessage().contains("No WritePolicyProvider named 'per-collection'"), e.getMessage());
        assertTrue(e.getMessage().contains("'other'"), e.getMessage());
    }

    @Test
    void noProvidersAtAllSaysSo() {
        Providers<WritePolicyProvider> providers = Providers.load(WritePolicyProvider.class, List.of());
        ProviderException e = assertThrows(ProviderException.class, () -> providers.named("per-collection"));
        assertTrue(e.getMessage().contains("no WritePolicyProvider providers"), e.getMessage());
    }

    @Test
    void twoProvidersWithTheSameNameAreAmbiguous() {
        Providers<WritePolicyProvider> providers = Providers.load(WritePolicyProvider.class,
                List.of(provider("per-collection"), provider("per-collection")));
        ProviderException e = assertThrows(ProviderException.class, () -> providers.named("per-collection"));
        assertTrue(e.getMessage().contains("Several WritePolicyProviders are named 'per-collection'"), e.getMessage());
    }

    @Test
    void aProviderThatFailsToLoadIsReportedNotSwallowed() {
        WritePolicyProvider good = provider("per-collection");
        Iterable<WritePolicyProvider> loader = () -> new Iterator<>() {
            int step;

            @Override
            public boolean hasNext() {
                return step < 2;
            }

            @Override
            public WritePolicyProvider next() {
                if (step++ == 0) {
                    throw new ServiceConfigurationError("com.example.Broken: Provider could not be instantiated",
                            new IllegalStateException("boom"));
                }
                if (step > 2) {
                    throw new NoSuchElementException();
                }
                return good;
            }
        };
        Providers<WritePolicyProvider> providers = Providers.load(WritePolicyProvider.class, loader);
        assertSame(good, providers.named("per-collection"));
        assertEquals(1, providers.all().size());
        ProviderException e = assertThrows(ProviderException.class, () -> providers.named("missing"));
        assertTrue(e.getMessage().contains("com.example.Broken") && e.getMessage().contains("boom"), e.getMessage());
    }
}
