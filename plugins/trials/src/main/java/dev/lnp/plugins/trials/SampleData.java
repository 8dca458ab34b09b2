package dev.lnp.plugins.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.internal.mcp.ToolGateway;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * Seeds a new trial workspace with realistic sample data through other plugins' public MCP tools (no code
 * dependency on them), called with a short-lived key of the new workspace. A module that is not loaded (unknown
 * tool) or switched off for the workspace (tool denied) is skipped.
 */
final class SampleData {

    private static final System.Logger LOG = System.getLogger(SampleData.class.getName());

    private final ToolGateway gateway;

    SampleData(ToolGateway gateway) {
        this.gateway = gateway;
    }

    /** What was created, by tool name (for the log and tests). */
    List<String> seed(String key) {
        List<String> created = new ArrayList<>();
        String[][] contacts = {
                {"Maria", "Okafor", "maria.okafor@northwind-logistics.example", "Head of Operations", "Northwind Logistics", "customer"},
                {"Jonas", "Lindqvist", "jonas.lindqvist@fjordline-foods.example", "Purchasing Manager", "Fjordline Foods", "prospect"},
                {"Priya", "Raman", "priya.raman@brightpath-clinics.example", "IT Director", "Brightpath Clinics", "qualified"},
                {"Tomás", "Herrera", "tomas.herrera@altavista-solar.example", "Founder", "Altavista Solar", "lead"},
                {"Chloé", "Martin", "chloe.martin@atelier-lumiere.example", "Studio Manager", "Atelier Lumière", "engaged"}};
        List<String> contactIds = new ArrayList<>();
        for (String[] c : contacts) {
            call(key, "crm_create_contact", Json.object().put("first_name", c[0]).put("last_name", c[1]).put("email", c[2])
                    .put("job_title", c[3]).put("company_name", c[4]).put("contact_type", c[5]).put("status", "active"),
                    created).ifPresent(id -> contactIds.add(id));
        }
        Object[][] deals = {
                {"Northwind fleet tracking rollout", 48000, "negotiation", 0},
                {"Fjordline cold-chain sensors pilot", 12500, "proposal", 1},
                {"Brightpath patient portal upgrade", 86000, "qualified", 2},
                {"Altavista installer CRM seats", 7200, "discovery", 3}};
        for (Object[] d : deals) {
            ObjectNode args = Json.object().put("title", (String) d[0]).put("value", (Integer) d[1])
                    .put("currency", "EUR").put("stage", (String) d[2]).put("status", "open");
            int contact = (Integer) d[3];
            if (contact < contactIds.size()) {
                args.put("contact_id", contactIds.get(contact));
            }
            call(key, "crm_create_deal", args, created);
        }
        String project = call(key, "projects_create", Json.object().put("name", "Northwind onboarding")
                .put("description", "Roll out fleet tracking to Northwind's three depots by the end of the quarter.")
                .put("status", "active").put("priority", "high"), created).orElse(null);
        call(key, "projects_create", Json.object().put("name", "Website relaunch")
                .put("description", "New product pages and a customer stories section.")
                .put("status", "planned").put("priority", "medium"), created);
        String[][] tasks = {
                {"Install trackers at the Rotterdam depot", "todo", "high"},
                {"Train dispatch staff on the live map", "backlog", "medium"},
                {"Agree the data retention policy with Northwind legal", "in_progress", "urgent"}};
        for (String[] t : tasks) {
            ObjectNode args = Json.object().put("kind", "task").put("title", t[0]).put("status", t[1])
                    .put("priority", t[2]);
            if (project != null) {
                args.put("project_id", project);
            }
            call(key, "issues_create", args, created);
        }
        String[][] tickets = {
                {"Invoice 2291 shows the wrong VAT rate", "open", "high"},
                {"Cannot export contacts to CSV from the mobile app", "new", "medium"}};
        for (String[] t : tickets) {
            call(key, "issues_create", Json.object().put("kind", "ticket").put("title", t[0]).put("status", t[1])
                    .put("priority", t[2]), created);
        }
        return created;
    }

    /** Calls the tool; returns the created item's id. Skips (empty) when the module is missing or off. */
    private java.util.Optional<String> call(String key, String tool, ObjectNode args, List<String> created) {
        try {
            Object data = gateway.callWithKey(key, tool, args).data();
            JsonNode node = Json.mapper().valueToTree(data);
            created.add(tool);
            JsonNode id = node.has("data") ? node.path("data").path("id") : node.path("id");
            return id.isTextual() ? java.util.Optional.of(id.asText()) : java.util.Optional.empty();
        } catch (ApiProblem problem) {
            if (problem.status() == 404 || "tool_denied".equals(problem.code())) {
                LOG.log(Level.DEBUG, "sample data: {0} skipped ({1})", tool, problem.code());
                return java.util.Optional.empty();
            }
            throw problem;
        }
    }
}
