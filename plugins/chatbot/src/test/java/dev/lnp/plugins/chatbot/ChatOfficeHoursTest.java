package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A widget's office hours over HTTP. The platform has no clock to set, so the hours are written relative to now:
 * open all day every day, or only two days from now. Outside them the hand-off is recorded, the visitor is told
 * when someone is back and leaves an address that the inbox shows.
 */
@PlatformTest(plugins = {"chatbot"})
class ChatOfficeHoursTest {

    private static final String ALWAYS = ",\"office_hours\":{\"time_zone\":\"UTC\",\"monday\":\"00:00-24:00\","
            + "\"tuesday\":\"00:00-24:00\",\"wednesday\":\"00:00-24:00\",\"thursday\":\"00:00-24:00\","
            + "\"friday\":\"00:00-24:00\",\"saturday\":\"00:00-24:00\",\"sunday\":\"00:00-24:00\"}";

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatOfficeHoursTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void withinOfficeHoursOrWithoutThemAPersonIsAvailable() {
        UUID ws = platform.createWorkspace("hours-open");
        JsonNode created = chat.createWidget(ws, ALWAYS);
        assertEquals("00:00-24:00", created.get("office_hours").get("friday").asText());
        JsonNode open = chat.session(created.get("key").asText()).get("availability");
        assertEquals(true, open.get("person_available").asBoolean(), open.toString());
        assertTrue(open.get("next_person_at").isNull());

        JsonNode plain = chat.createWidget(ws, "");
        assertTrue(plain.get("office_hours").isNull(), "no office hours: attended at any time");
        assertEquals(true, chat.session(plain.get("key").asText()).get("availability").get("person_available")
                .asBoolean());
    }

    @Test
    void outsideOfficeHoursTheHandOffIsRecordedAndTheVisitorLeavesAnAddress() throws Exception {
        UUID ws = platform.createWorkspace("hours-closed");
        LocalDate later = LocalDate.now(ZoneOffset.UTC).plusDays(2);
        String day = later.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
        JsonNode created = chat.createWidget(ws, ",\"office_hours\":{\"time_zone\":\"UTC\",\""
                + day.toLowerCase(Locale.ROOT) + "\":\"10:00-11:00\"}");
        String key = created.get("key").asText();
        JsonNode s = chat.session(key);
        JsonNode availability = s.get("availability");
        assertEquals(false, availability.get("person_available").asBoolean(), availability.toString());
        assertEquals(later + "T10:00Z", availability.get("next_person_at").asText());
        String back = "We are back " + day + " at 10:00 (UTC)";
        assertEquals(back, availability.get("back_text").asText());

        String sid = s.get("session_id").asText();
        // Before asking for a person, an address has nobody to go to.
        assertEquals(409, contact(s, "ada@example.com").status());
        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), sid, null)) {
            assertEquals(202, chat.message(s, "Invoice is wrong", "{\"request_human\":true}").status());
            JsonNode opened = stream.next("handoff.opened").json();
            assertEquals(false, opened.get("availability").get("person_available").asBoolean(), opened.toString());
            String notice = stream.next("message.completed").json().get("message").get("text").asText();
            assertTrue(notice.contains(back) && notice.contains("leave your e-mail address"), notice);
            stream.next("run.completed");
        }
        TestPerson member = platform.person(ws, "member");
        assertTrue(member.get("/app/chat").body().contains("Invoice is wrong"), "recorded for the team all the same");

        TestResponse bad = contact(s, "not an address");
        assertEquals(422, bad.status(), bad.toString());
        assertTrue(bad.body().contains("/email"), bad.body());
        TestResponse left = contact(s, "ada@example.com");
        assertEquals(200, left.status(), left.toString());
        assertEquals("ada@example.com", left.json().path("data").path("email").asText(left.json().path("email").asText()));
        String page = member.get("/app/chat/" + sid).body();
        assertTrue(page.contains("Visitor&#39;s e-mail") || page.contains("Visitor's e-mail"), page);
        assertTrue(page.contains("ada@example.com"), page);
    }

    @Test
    void badOfficeHoursAreRefusedNamingTheField() {
        UUID ws = platform.createWorkspace("hours-refused");
        String admin = platform.fullAccessKey(ws);
        Map<String, String> cases = Map.of(
                "{\"time_zone\":\"Mars/Olympus\"}", "/office_hours/time_zone",
                "{\"time_zone\":\"UTC\",\"monday\":\"09:00-12:00, 11:00-17:00\"}", "/office_hours/monday",
                "{\"time_zone\":\"UTC\",\"tuesday\":\"17:00-09:00\"}", "/office_hours/tuesday",
                "{\"time_zone\":\"UTC\",\"wednesday\":\"nine to five\"}", "/office_hours/wednesday",
                "{\"time_zone\":\"UTC\",\"someday\":\"09:00-17:00\"}", "/office_hours");
        cases.forEach((hours, field) -> {
            TestResponse r = platform.post("/api/v1/chatbot/widgets", admin, "{\"name\":\"Help\",\"allowed_origins\":"
                    + "[\"https://shop.example\"],\"office_hours\":" + hours + "}");
            assertTrue(r.status() == 400 || r.status() == 422, hours + ": " + r);
            assertTrue(r.body().contains(field), hours + " names " + field + ": " + r.body());
        });
        // A change that is refused leaves the widget as it was.
        JsonNode widget = chat.createWidget(ws, ALWAYS);
        TestResponse patch = platform.send("PATCH", "/api/v1/chatbot/widgets/" + widget.get("id").asText(), admin,
                "{\"office_hours\":{\"time_zone\":\"Nowhere\"}}", Map.of());
        assertEquals(422, patch.status(), patch.toString());
        assertEquals("00:00-24:00", platform.get("/api/v1/chatbot/widgets/" + widget.get("id").asText(), admin).data()
                .get("office_hours").get("monday").asText());
    }

    private TestResponse contact(JsonNode session, String email) {
        return platform.send("POST", "/api/cxo/contact", null, "{\"token\":\"" + session.get("token").asText()
                + "\",\"session_id\":\"" + session.get("session_id").asText() + "\",\"email\":\"" + email + "\"}",
                Map.of("Origin", ChatClient.ORIGIN));
    }
}
