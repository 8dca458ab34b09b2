package dev.lnp.core.metrics;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A subsystem's meters reach /metrics under the names it gives them, and never under the kernel's. */
class SubsystemMetersTest {

    @Test
    void aSubsystemsCounterTimerAndGaugeAreScrapedUnderTheirOwnNames() {
        try (var metrics = new PlatformMetrics("test")) {
            metrics.count("lnp.probe.attempts", "Probe attempts", Map.of("outcome", "ok"));
            metrics.count("lnp.probe.attempts", "Probe attempts", Map.of("outcome", "ok"));
            metrics.time("lnp.probe.lag", "Probe lag", List.of(Duration.ofSeconds(1)), Duration.ofMillis(-5));
            metrics.gauge("lnp.probe.depth", "Probe depth", () -> 7);

            String text = metrics.scrape();
            assertTrue(text.contains("lnp_probe_attempts_total{outcome=\"ok\"} 2.0"), text);
            assertTrue(text.contains("lnp_probe_lag_seconds_bucket{le=\"1.0\"} 1"), text);
            assertTrue(text.contains("lnp_probe_depth 7.0"), text);
        }
    }

    @Test
    void aSubsystemCannotNameAMeterOutsideTheLnpNamesOrTakeAKernelMetersName() {
        try (var metrics = new PlatformMetrics("test")) {
            var outside = assertThrows(IllegalArgumentException.class,
                    () -> metrics.count("probe.attempts", "Probe attempts", Map.of()));
            assertTrue(outside.getMessage().contains("probe.attempts"), outside.getMessage());
            var kernel = assertThrows(IllegalArgumentException.class,
                    () -> metrics.gauge(PlatformMetrics.TOOL_CALLS, "Not the tool calls", () -> 1));
            assertTrue(kernel.getMessage().contains(PlatformMetrics.TOOL_CALLS), kernel.getMessage());
        }
    }
}
