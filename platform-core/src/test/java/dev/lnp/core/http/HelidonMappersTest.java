package dev.lnp.core.http;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.helidon.common.mapper.MapperManager;
import org.junit.jupiter.api.Test;

class HelidonMappersTest {

    @Test
    void everyLookupOfTheGlobalMapperManagerReturnsTheInstalledOne() {
        HelidonMappers.installOnce();
        HelidonMappers.installOnce();

        // Helidon 4.4.0 built a new manager on every lookup (a header read as a number did one per request).
        assertSame(MapperManager.global(), MapperManager.global());
    }
}
