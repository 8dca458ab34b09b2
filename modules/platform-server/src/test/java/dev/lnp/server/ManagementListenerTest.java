package dev.lnp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ManagementListenerTest {

    @Test
    void aPortOutOfRangeIsRefusedNamingTheSetting() {
        for (int port : new int[] {-2, 65536}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ManagementListener("127.0.0.1", port, () -> ""));
            assertEquals("lnp.management.port must be a port (0 for any free one) or -1 for none, not " + port,
                    e.getMessage());
        }
    }

    @Test
    void minusOneSwitchesTheListenerOffAndZeroTakesAnyFreePort() {
        assertFalse(new ManagementListener("127.0.0.1", -1, () -> "").enabled());
        assertTrue(new ManagementListener("127.0.0.1", 0, () -> "").enabled());
    }
}
