package io.quackjvm.api;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The api module's tests have no result reader on the class path: Arrow is off, and says what to add. */
class ArrowSupportTest {

    @Test
    void withoutTheArrowReaderTheReasonNamesTheModuleAndNoFlagIsGuessed() {
        assertFalse(ArrowSupport.isAvailable());
        String reason = ArrowSupport.getUnavailableReason();
        assertTrue(reason.contains("io.quackjvm:quackjvm-reader-arrow"), reason);
        assertNull(ArrowSupport.getRequiredJvmFlag(), "the flag is the Arrow reader's to know");
    }
}
