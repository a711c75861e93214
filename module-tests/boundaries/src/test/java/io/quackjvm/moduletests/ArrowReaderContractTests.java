package io.quackjvm.moduletests;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.testkit.ResultReaderContract;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our optional "arrow" reader, found by ServiceLoader, passes the provider test kit. The build gives this JVM the
 * flag the reader needs, so it must be usable here: the kit's reading tests run rather than being skipped.
 */
class ArrowReaderContractTests extends ResultReaderContract {

    @Override
    protected ResultReaderProvider provider() {
        return discovered(ResultReaderProvider.class, "arrow");
    }

    @Test
    void isUsableWithTheFlagTheBuildGives() {
        ResultReaderProvider arrow = provider();
        assertEquals(Optional.empty(), arrow.unavailableReason(), "the arrow reader must be usable in this JVM");
        assertTrue(arrow.bulk(), "the arrow reader is a bulk reader");
    }
}
