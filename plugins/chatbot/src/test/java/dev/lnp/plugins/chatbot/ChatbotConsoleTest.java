package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.web.console.ConsoleSessions;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The console's Chat widgets pages over real HTTP: create (key shown once), a bad origin next to its field. */
@PlatformTest(plugins = {"chatbot"})
class ChatbotConsoleTest {

    private static final String WIDGETS = "/console/chatbot/widgets";

    @Test
    void anAdminCreatesAWidgetInTheConsoleAndSeesItsKeyOnce(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("console");
        String email = "admin-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        UUID user = platform.workspaces().addUser(ws, email, "admin");
        String cookie = "lnp_console=" + new ConsoleSessions(platform.jdbi(), Duration.ofHours(1))
                .create(email, user, "test", "127.0.0.1").token();
        String base = "http://localhost:" + platform.port();
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

        var empty = http.send(HttpRequest.newBuilder(java.net.URI.create(base + WIDGETS)).header("Cookie", cookie)
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, empty.statusCode(), empty.body());
        assertTrue(empty.body().contains("No chat widgets yet."), empty.body());
        var form = http.send(HttpRequest.newBuilder(java.net.URI.create(base + WIDGETS + "/new"))
                .header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, form.statusCode(), form.body());
        assertTrue(form.body().contains("Allowed origins"), form.body());
        Matcher csrf = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(form.body());
        assertTrue(csrf.find(), form.body());

        var refused = post(http, base, cookie, csrf.group(1), "name=Help&allowed_origins="
                + enc("https://shop.example/help"));
        assertEquals(400, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("Allowed origins"), refused.body());

        var created = post(http, base, cookie, csrf.group(1), "name=Help&greeting=" + enc("Hi there")
                + "&allowed_origins=" + enc(ChatClient.ORIGIN + "\nhttp://127.0.0.1:9") + "&position=left&responder=knowledge");
        assertEquals(303, created.statusCode(), created.body());
        String location = created.headers().firstValue("Location").orElseThrow();
        assertTrue(location.matches(WIDGETS + "/[0-9a-f-]{36}"), location);
        // The key is shown on the widget's page after the redirect, once; the cookies carry it sealed.
        String cookies = cookie + "; " + String.join("; ", created.headers().allValues("Set-Cookie").stream()
                .map(c -> c.substring(0, c.indexOf(';'))).toList());
        var shown = http.send(HttpRequest.newBuilder(java.net.URI.create(base + location)).header("Cookie", cookies)
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, shown.statusCode(), shown.body());
        Matcher key = Pattern.compile("(lnp_cxo_[A-Za-z0-9_-]{20,})").matcher(shown.body());
        assertTrue(key.find(), shown.body());
        assertTrue(shown.body().contains("The widget was created."), shown.body());
        // The key from the console works on the chat endpoints.
        var chat = new ChatClient(platform);
        var session = chat.session(key.group(1));
        assertEquals("Hi there", session.get("widget").get("greeting").asText());
        assertEquals("left", session.get("widget").get("theme").get("position").asText());

        var listed = http.send(HttpRequest.newBuilder(java.net.URI.create(base + WIDGETS)).header("Cookie", cookie)
                .build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(listed.body().contains(">Help</a>"), listed.body());
        assertTrue(!listed.body().contains(key.group(1)), "the key is not shown again");
    }

    @Test
    void theWidgetFormHasTheOfficeHoursAndRefusesBadOnesNextToTheirField(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("console-hours");
        String email = "admin-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        UUID user = platform.workspaces().addUser(ws, email, "admin");
        String cookie = "lnp_console=" + new ConsoleSessions(platform.jdbi(), Duration.ofHours(1))
                .create(email, user, "test", "127.0.0.1").token();
        String base = "http://localhost:" + platform.port();
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        var form = http.send(HttpRequest.newBuilder(java.net.URI.create(base + WIDGETS + "/new"))
                .header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(form.body().contains("Office hours: time zone") && form.body().contains("Monday"), form.body());
        Matcher csrf = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(form.body());
        assertTrue(csrf.find(), form.body());
        String fields = "name=Help&allowed_origins=" + enc(ChatClient.ORIGIN);

        var badZone = post(http, base, cookie, csrf.group(1), fields + "&time_zone=" + enc("Mars/Olympus"));
        // Checked by the service rather than the schema: 422, the page still shows the form with the refusal.
        assertEquals(422, badZone.statusCode(), badZone.body());
        assertTrue(badZone.body().contains("href=\"#f-time_zone\">Office hours: time zone: Write a time zone such as "
                + "Europe/Berlin"), badZone.body());
        var overlap = post(http, base, cookie, csrf.group(1), fields + "&time_zone=UTC&monday="
                + enc("09:00-13:00, 12:00-17:00"));
        assertEquals(422, overlap.statusCode(), overlap.body());
        assertTrue(overlap.body().contains("must not overlap") && overlap.body().contains("aria-invalid=\"true\""),
                overlap.body());

        var created = post(http, base, cookie, csrf.group(1), fields + "&time_zone=" + enc("Europe/Berlin")
                + "&monday=" + enc("09:00-17:00") + "&friday=" + enc("09:00-12:00,13:00-15:00"));
        assertEquals(303, created.statusCode(), created.body());
        var widgets = platform.get("/api/v1/chatbot/widgets", platform.fullAccessKey(ws)).json().path("data");
        var hours = widgets.get(0).get("office_hours");
        assertEquals("Europe/Berlin", hours.get("time_zone").asText(), widgets.toString());
        assertEquals("09:00-12:00, 13:00-15:00", hours.get("friday").asText());
        assertEquals("", hours.get("sunday").asText());
    }

    private static HttpResponse<String> post(HttpClient http, String base, String cookie, String csrf, String form)
            throws Exception {
        return http.send(HttpRequest.newBuilder(java.net.URI.create(base + WIDGETS + "/new")).header("Cookie", cookie)
                .header("Origin", base).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("csrf=" + enc(csrf) + "&" + form)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
