package dev.lnp.core.http;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.helidon.common.mapper.MapperManager;
import org.junit.jupiter.api.Test;

@SuppressWarnings("removal") // the deprecated manager is what Helidon 4.4.0's header values call
class HelidonMappersTest {

    @Test
    void everyLookupOfTheGlobalMapperManagerReturnsTheInstalledOne() {
        HelidonMappers.installOnce();
        HelidonMappers.installOnce();

        // Helidon 4.4.0 built a new manager on every lookup (a header read as a number did one per request).
        assertSame(MapperManager.global(), MapperManager.global());
    }
}
