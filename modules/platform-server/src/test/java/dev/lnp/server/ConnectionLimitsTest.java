package dev.lnp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ConnectionLimitsTest {

    @Test
    void theDefaultCapLeavesDescriptorsForTheRestOfTheProcess() {
        // ulimit -n 1024 with 200 open: three quarters of the 824 left.
        assertEquals(618, ConnectionLimits.safeMaxConnections(OptionalLong.of(1024), 200));
        // Few left: all but the reserve.
        assertEquals(136, ConnectionLimits.safeMaxConnections(OptionalLong.of(400), 200));
        // Nothing left: still one, never zero or negative.
        assertEquals(1, ConnectionLimits.safeMaxConnections(OptionalLong.of(250), 250));
        // A generous limit (systemd's LimitNOFILE=65536): the default cap.
        assertEquals(ConnectionLimits.DEFAULT_MAX_CONNECTIONS,
                ConnectionLimits.safeMaxConnections(OptionalLong.of(65_536), 300));
        assertEquals(ConnectionLimits.FALLBACK_MAX_CONNECTIONS,
                ConnectionLimits.safeMaxConnections(OptionalLong.empty(), 300));
    }

    @Test
    void thisProcessLimitIsRead() {
        OptionalLong limit = ConnectionLimits.descriptorLimit();
        assertTrue(limit.isPresent() && limit.getAsLong() > ConnectionLimits.descriptorsOpen(), limit.toString());
    }

    @Test
    void oneClientGetsHalfTheCapUnlessConfigured() {
        ConnectionLimits limits = ConnectionLimits.http(300, null, null);
        assertEquals(300, limits.maxConnections());
        assertEquals(150, limits.maxPerClient());
        assertEquals(Duration.ofSeconds(ConnectionLimits.DEFAULT_FIRST_REQUEST_SECONDS), limits.firstRequestTimeout());

        ConnectionLimits configured = ConnectionLimits.http(300, 20, 3);
        assertEquals(20, configured.maxPerClient());
        assertEquals(Duration.ofSeconds(3), configured.firstRequestTimeout());

        // Behind a reverse proxy every connection has the proxy's address: one client may take the whole cap.
        assertEquals(300, ConnectionLimits.http(300, 300, null).maxPerClient());
    }

    @Test
    void theManagementListenerHasASmallCapOfItsOwn() {
        ConnectionLimits limits = ConnectionLimits.management(null, null);
        assertEquals(ConnectionLimits.MANAGEMENT_MAX_CONNECTIONS, limits.maxConnections());
        assertEquals(limits.maxConnections(), limits.maxPerClient());
        assertEquals(5, ConnectionLimits.management(5, 2).maxConnections());
    }
}
