package dev.lnp.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.OperatorCli.Result;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code platform routes}: what a deployment serves, and with --verbose where each route's pieces live. */
@PlatformTest(plugins = "probe")
class RoutesCommandTest {

    @Test
    void verboseNamesEachRoutesSchemaFileAndHandlerClass(TestPlatform platform) {
        Result verbose = OperatorCli.run(platform, "routes", "--verbose");
        assertEquals(0, verbose.exit(), verbose.err());
        assertLine(verbose.out(), "POST", "/api/v1/probe/items", "probe", "probe.write", "schemas/item-create.json",
                "dev.lnp.testkit.probe.ProbePlugin");
        assertLine(verbose.out(), "PATCH", "/api/v1/probe/items/{id}", "probe", "probe.write",
                "schemas/item-patch.json", "dev.lnp.testkit.probe.ProbePlugin");
        assertLine(verbose.out(), "GET", "/api/v1/probe/items", "probe", "probe.read", "-",
                "dev.lnp.testkit.probe.ProbePlugin");
        assertLine(verbose.out(), "POST", "/api/v1/webhooks/subscriptions", "core", "webhooks.write",
                "webhook-schemas/subscription-create.json", "dev.lnp.webhooks.WebhookRoutes");
        assertTrue(verbose.out().lines().findFirst().orElseThrow().matches("METHOD\\s+PATH\\s+PLUGIN\\s+SCOPE\\s+SCHEMA\\s+HANDLER"),
                verbose.out());
    }

    @Test
    void withoutVerboseOnlyMethodPathPluginAndScope(TestPlatform platform) {
        Result plain = OperatorCli.run(platform, "routes");
        assertEquals(0, plain.exit(), plain.err());
        assertTrue(Pattern.compile("(?m)^POST\\s+/api/v1/probe/items\\s+probe\\s+probe\\.write\\s*$").matcher(plain.out())
                .find(), plain.out());
        assertFalse(plain.out().contains("schemas/"), plain.out());
    }

    private static void assertLine(String out, String... columns) {
        StringBuilder regex = new StringBuilder("(?m)^");
        for (int i = 0; i < columns.length; i++) {
            regex.append(i == 0 ? "" : "\\s+").append(Pattern.quote(columns[i]));
        }
        regex.append("\\s*$");
        assertTrue(Pattern.compile(regex.toString()).matcher(out).find(), String.join(" ", columns) + " in:\n" + out);
    }
}
