package io.quackjvm.api.internal.database;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryLimitTest {

    @ParameterizedTest
    @CsvSource({"512MB,512MB", "512mb,512MB", " 1.5 GB ,1.5GB", "256MiB,256MIB", "100000B,100000B", "2TB,2TB"})
    void acceptedFormsAreNormalisedForDuckDb(String given, String expected) {
        assertEquals(expected, MemoryLimit.normalise(given));
    }

    @ParameterizedTest
    @ValueSource(strings = {"12 parsecs", "512", "MB", "-1GB", "1,5GB", "50%"})
    void otherFormsAreRefusedListingTheAcceptedOnes(String given) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MemoryLimit.normalise(given));
        assertTrue(e.getMessage().contains(given), e.getMessage());
        assertTrue(e.getMessage().contains("512MB"), e.getMessage());
    }

    @Test
    void zeroIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MemoryLimit.normalise("0MB"));
        assertTrue(e.getMessage().contains("greater than zero"), e.getMessage());
    }

    @Test
    void nullIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> MemoryLimit.normalise(null));
    }
}
