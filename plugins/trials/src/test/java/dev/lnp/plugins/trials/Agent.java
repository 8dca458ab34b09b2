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

    /** The owner opens the link and presses a button: GET the page (cookie, CSRF field), POST the form. */
    static HttpResponse<String> decide(TestPlatform platform, String link, String decision) {
        try {
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(java.net.URI.create(link)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (page.statusCode() != 200) {
                throw new AssertionError(page.statusCode() + " " + page.body());
            }
            String cookie = page.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
            if (!page.body().contains("<form")) {
                // No button for this decision on the page (e.g. a decided request): post it by hand.
                Matcher m = Pattern.compile("request=([^&]+)&key=([^&]+)").matcher(link);
                if (!m.find()) {
                    throw new AssertionError(link);
                }
                return post(platform, "request=" + m.group(1) + "&key=" + m.group(2) + "&csrf="
                        + cookie.substring(cookie.indexOf('=') + 1) + "&decision=" + decision, cookie);
            }
            return post(platform, form(page.body(), decision), cookie);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static String form(String page, String decision) {
        String request = field(page, "request");
        String key = field(page, "key");
        String csrf = field(page, "csrf");
        return "request=" + request + "&key=" + key + "&csrf=" + csrf + "&decision=" + decision;
    }

    static String field(String page, String name) {
        Matcher m = Pattern.compile("name=\"" + name + "\" value=\"([^\"]*)\"").matcher(page);
        if (!m.find()) {
            throw new AssertionError("no field " + name + " in " + page);
        }
        return m.group(1);
    }

    static HttpResponse<String> post(TestPlatform platform, String form, String cookie) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(platform.uri(TrialRoutes.APPROVE))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form));
            if (cookie != null) {
                b.header("Cookie", cookie);
            }
            return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static TestResponse mcpCall(TestPlatform platform, String key, String tool, String args) {
        return platform.send("POST", "/api/mcp/tools/call", key, "{\"name\":\"" + tool + "\",\"arguments\":" + args
                + "}", Map.of());
    }
}
