package dev.lnp.plugins.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What an agent does over HTTP: solve challenges, submit requests, poll; and the owner's form posts. */
final class Agent {

    private static final Pattern NUMBER = Pattern.compile("\\d+");

    private Agent() {
    }

    /** Reads the word problem like an agent would: which story it is, and its numbers. */
    static long solve(String question) {
        List<Long> n = new ArrayList<>();
        Matcher m = NUMBER.matcher(question);
        while (m.find()) {
            n.add(Long.parseLong(m.group()));
        }
        if (question.contains("warehouse")) {
            return n.get(0) * n.get(1) - n.get(2) + n.get(3);
        }
        return n.get(0) * n.get(1) * n.get(2);
    }

    static ObjectNode body(JsonNode challenge, String email, String workspace) {
        long n = solve(challenge.path("question").asText());
        UUID id = UUID.fromString(challenge.path("challenge_id").asText());
        return body(challenge.path("token").asText(), Challenges.expectedAnswer(n, id, email, workspace), email,
                workspace);
    }

    static ObjectNode body(String token, String answer, String email, String workspace) {
        ObjectNode body = Json.object().put("owner_email", email).put("workspace_name", workspace)
                .put("purpose", "Evaluate the CRM tools for a sales-assistant integration.");
        body.putObject("agent").put("name", "Scout").put("vendor", "Example Labs").put("version", "1.4.2");
        body.putObject("challenge").put("token", token).put("answer", answer);
        return body;
    }

    static JsonNode challenge(TestPlatform platform) {
        TestResponse r = platform.get(TrialRoutes.CHALLENGE, null);
        if (r.status() != 200) {
            throw new AssertionError(r.toString());
        }
        return r.json();
    }

    /** A solved, submitted request: the 202 body. */
    static JsonNode submit(TestPlatform platform, String email, String workspace) {
        TestResponse r = platform.post(TrialRoutes.SUBMIT, null, body(challenge(platform), email, workspace).toString());
        if (r.status() != 202) {
            throw new AssertionError(r.toString());
        }
        return r.json();
    }

    static TestResponse status(TestPlatform platform, String token) {
        return platform.get(TrialRoutes.STATUS, token);
    }

    static TestResponse mcpCall(TestPlatform platform, String key, String tool, String args) {
        return platform.send("POST", "/api/mcp/tools/call", key, "{\"name\":\"" + tool + "\",\"arguments\":" + args
                + "}", Map.of());
    }
}
