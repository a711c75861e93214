package io.quackjvm.api.internal.database;

import io.quackjvm.api.QuackException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DriverVersionTest {

    @ParameterizedTest
    @ValueSource(strings = {"v1.5.5", "v1.5.4", "v1.4.4", "v0.10.3", "1.5", "garbage", "null"})
    void refusesDriversOlderThanTheSupportedOne(String version) {
        QuackException e = assertThrows(QuackException.class, () -> DriverVersion.check(version));
        assertTrue(e.getMessage().contains("runs DuckDB " + version), e.getMessage());
        assertTrue(e.getMessage().contains("duckdb_jdbc 1.5.6.0 or newer"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1.5.6", "v1.5.7", "v1.6.0", "v2.0.0", "1.5.6", "v1.5.6-dev123"})
    void acceptsTheSupportedDriverAndNewer(String version) {
        assertDoesNotThrow(() -> DriverVersion.check(version));
    }

    @Test
    void theShippedDriverIsAccepted() {
        assertDoesNotThrow(DriverVersion::requireSupported);
    }
}
