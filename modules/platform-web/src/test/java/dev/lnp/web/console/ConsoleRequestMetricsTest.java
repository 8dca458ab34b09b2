package dev.lnp.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The labels of a console request: bounded whatever the client sends. */
class ConsoleRequestMetricsTest {

    @Test
    void theRouteIsTheTemplateAndAnAddressNoPageHasIsOneLabel() {
        assertEquals("/console/connections/{id}", ConsoleRequestMetrics.route("/console/connections/{id}"));
        assertEquals("/console/sign-in", ConsoleRequestMetrics.route("/sign-in"));
        assertEquals("/console/", ConsoleRequestMetrics.route("/console/"));
        assertEquals("/console/**", ConsoleRequestMetrics.route("/console"), "the catch-all's pattern");
        assertEquals("/console/**", ConsoleRequestMetrics.route(null));
        assertEquals("/console/**", ConsoleRequestMetrics.route(""));
    }

    @Test
    void aMethodHttpDoesNotDefineIsOther() {
        assertEquals("GET", ConsoleRequestMetrics.method("GET"));
        assertEquals("PATCH", ConsoleRequestMetrics.method("PATCH"));
        assertEquals("OTHER", ConsoleRequestMetrics.method("BREW"));
        assertEquals("OTHER", ConsoleRequestMetrics.method("get"));
    }
}
