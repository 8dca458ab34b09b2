package dev.lnp.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.server.Listeners;
import dev.lnp.server.ManagementListener;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ListenerSettingsTest {

    private static PlatformConfig config(Map<String, String> values) {
        return PlatformConfig.load(null, Map.of(), values);
    }

    @Test
    void theConnectionSettingsReachBothListeners() {
        Listeners.Settings settings = ListenerSettings.of(config(Map.of("lnp.http.max_connections", "300",
                "lnp.http.max_connections_per_client", "20", "lnp.http.first_request_timeout_seconds", "3",
                "lnp.management.max_connections", "4")));
        assertEquals(300, settings.http().maxConnections());
        assertEquals(20, settings.http().maxPerClient());
        assertEquals(Duration.ofSeconds(3), settings.http().firstRequestTimeout());
        assertEquals(4, settings.management().maxConnections());
        assertEquals(Duration.ofSeconds(3), settings.management().firstRequestTimeout());
    }

    @Test
    void aLimitBelowOneIsRefusedNamingTheSetting() {
        for (String key : new String[] {"lnp.http.max_connections", "lnp.http.max_connections_per_client",
                "lnp.http.first_request_timeout_seconds", "lnp.management.max_connections"}) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> ListenerSettings.of(config(Map.of(key, "0"))));
            assertEquals(key + " must be at least 1, not 0", e.getMessage());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ListenerSettings.of(config(Map.of("lnp.http.max_connections", "many"))));
        assertTrue(e.getMessage().startsWith("lnp.http.max_connections must be a whole number"), e.getMessage());
    }

    @Test
    void theManagementListenerIsLocalOnItsOwnPortByDefault() {
        ManagementListener management = ListenerSettings.management(config(Map.of()), () -> "");
        assertEquals("127.0.0.1", management.host());
        assertEquals(9464, management.port());
        assertEquals(-1, ListenerSettings.management(config(Map.of("lnp.management.port", "-1")), () -> "").port());
    }
}
