package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code TestPlatform.callTool} calls tools through the gateway production uses: a connection's deny list and a
 * workspace's exhausted quota refuse the call, and every call leaves a tool-call audit row.
 */
@PlatformTest(plugins = "crm")
class CallToolThroughGatewayTest {

    @Test
    void aToolOnTheConnectionsDenyListIsRefusedAndAudited(TestPlatform platform) {
        UUID ws = platform.createWorkspace("denied-tool");
        String key = platform.fullAccessKey(ws);
        platform.connections().setToolPolicy(platform.principal(key).connectionId(), null,
                List.of("crm_create_contact"), false);

        ApiProblem refused = assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_create_contact",
                "{\"email\":\"denied@example.com\"}"));

        assertEquals(403, refused.status());
        assertEquals("tool_denied", refused.code());
        assertEquals("denied_for_connection", refused.errors().get(0).rule());
        assertEquals(List.of("crm_create_contact denied tool_denied internal"), auditRows(platform, ws, 1));
    }

    @Test
    void aCallBeyondTheWorkspacesQuotaIsRefusedAndAudited(TestPlatform platform) {
        UUID ws = platform.createWorkspace("quota-tool");
        String key = platform.fullAccessKey(ws);
        platform.setQuota(ws, CrmScopes.QUOTA, 1);

        platform.callTool(key, "crm_create_contact", "{\"email\":\"first@example.com\"}");
        ApiProblem refused = assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_create_contact",
                "{\"email\":\"second@example.com\"}"));

        assertEquals(429, refused.status());
        assertEquals("quota_exceeded", refused.code());
        assertEquals(List.of("crm_create_contact ok - internal", "crm_create_contact rejected quota_exceeded internal"),
                auditRows(platform, ws, 2));
        long contacts = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM crm.contacts WHERE workspace_id = :ws").bind("ws", ws).mapTo(Long.class).one());
        assertEquals(1, contacts, "the refused call created nothing");
    }

    /** The workspace's tool-call audit, oldest first; written off the call's path, so waited for. */
    private static List<String> auditRows(TestPlatform platform, UUID ws, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> rows;
        do {
            rows = platform.jdbi().withHandle(h -> h.createQuery("SELECT tool || ' ' || outcome || ' ' || "
                    + "coalesce(error_code, '-') || ' ' || endpoint FROM lnp_core.tool_calls WHERE workspace_id = :ws "
                    + "ORDER BY id").bind("ws", ws).mapTo(String.class).list());
            if (rows.size() >= count) {
                return rows;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the tool-call audit did not reach " + count + " rows: " + rows);
    }
}
