package dev.lnp.core.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import org.junit.jupiter.api.Test;

class LoggingTest {

    @Test
    void theUsualLevelNamesAreTakenBesideJavaUtilLoggingsInAnyCase() {
        assertEquals(Level.FINE, Logging.level("debug"));
        assertEquals(Level.FINE, Logging.level("DEBUG"));
        assertEquals(Level.FINEST, Logging.level("Trace"));
        assertEquals(Level.WARNING, Logging.level("warn"));
        assertEquals(Level.SEVERE, Logging.level("ERROR"));
        assertEquals(Level.INFO, Logging.level(" info "));
        assertEquals(Level.FINER, Logging.level("finer"));
        assertEquals(Level.OFF, Logging.level("OFF"));
    }

    @Test
    void anythingElseIsRefusedNamingTheSettingAndTheLevels() {
        for (String bad : new String[] {"LOUD", "", "500", "verbose"}) {
            var refused = assertThrows(IllegalArgumentException.class, () -> Logging.level(bad));
            assertTrue(refused.getMessage().startsWith("lnp.log.level (LNP_LOG_LEVEL) is \"" + bad + "\""),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("DEBUG"), refused.getMessage());
        }
    }
}
