package io.quackjvm.docs;

import io.quackjvm.api.ArrowSupport;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example of docs/arrow.md; this module does not bring the Arrow reader, so Arrow is off and says why. */
class ArrowTest {

    private static final Logger log = LoggerFactory.getLogger(ArrowTest.class);

    @Test
    void whichPath() {
        // tag::which-path[]
        if (!ArrowSupport.isAvailable()) {
            // the reason names what to add: the module, or the JVM flag (also given by getRequiredJvmFlag())
            log.warn("Arrow off: {}", ArrowSupport.getUnavailableReason());
        }
        // end::which-path[]
        assertFalse(ArrowSupport.isAvailable());
        assertTrue(ArrowSupport.getUnavailableReason() != null && !ArrowSupport.getUnavailableReason().isBlank());
        assertTrue(ArrowSupport.getUnavailableReason().contains("quackjvm-reader-arrow"),
                ArrowSupport.getUnavailableReason());
        // without the reader no flag helps
        assertNull(ArrowSupport.getRequiredJvmFlag());
    }
}
