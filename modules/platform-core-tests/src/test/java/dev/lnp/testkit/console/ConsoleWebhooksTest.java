package dev.lnp.testkit.console;

import static dev.lnp.testkit.WebhookReceiver.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.webhooks.signature.WebhookSignature;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver.Reply;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.web.console.ConsoleSessions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The console's Webhooks pages (page API routes of the webhooks subsystem) over real HTTP and PostgreSQL, with the platform's real dispatcher sending to a
 * real receiver: every page, every change (checked through the API, which shares the service), every refusal.
 * Each test starts from a console session made exactly as sign-in makes it (sign-in itself is ConsoleSignInTest's).
 */
@PlatformTest(plugins = "probe", config = {
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.request_timeout_ms=1000",
        "lnp.webhooks.lease_seconds=5",
        "lnp.webhooks.poll_interval_ms=200"})
class ConsoleWebhooksTest {

    static final String API = "/api/v1/webhooks/subscriptions";
    static final String NEW = "/console/webhooks/new";

    /** A browser signed in as a user of {@code workspace} with {@code role}, and an API key of the workspace. */
    record Person(ConsoleClient client, UUID workspace, String email, String key) {
        String csrf(String path) {
            return client.get(path).hidden("csrf");
        }

        ConsoleClient.Page post(String path, String... keyValues) {
            return postWith(path, csrf("/console/webhooks"), keyValues);
        }

        ConsoleClient.Page postWith(String path, String csrf, String... keyValues) {
            List<String> pairs = new ArrayList<>();
            if (csrf != null) {
                pairs.add("csrf=" + enc(csrf));
            }
            for (int i = 0; i < keyValues.length; i += 2) {
                pairs.add(enc(keyValues[i]) + "=" + enc(keyValues[i + 1]));
            }
            return client.postRaw(path, String.join("&", pairs));
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static Person signIn(TestPlatform platform, UUID workspace, String role) {
        String email;
        UUID userId;
        if (role.equals("owner")) {
            var owner = platform.jdbi().withHandle(h -> h.createQuery(
                            "SELECT id, email FROM lnp_core.users WHERE workspace_id = :ws AND role = 'owner'")
                    .bind("ws", workspace)
                    .map((rs, ctx) -> new Object[] {rs.getObject("id", UUID.class), rs.getString("email")}).one());
            userId = (UUID) owner[0];
            email = (String) owner[1];
        } else {
            email = role + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
            userId = platform.workspaces().addUser(workspace, email, role);
        }
        var issued = new ConsoleSessions(platform.jdbi(), Duration.ofHours(1)).create(email, userId, "test", "127.0.0.1");
        var client = new ConsoleClient(platform.port());
        client.setCookie("lnp_console", issued.token());
        return new Person(client, workspace, email, platform.fullAccessKey(workspace));
    }

    static Person owner(TestPlatform platform, String name) {
        return signIn(platform, platform.createWorkspace(name), "owner");
    }

    /** Creates a subscription through the console form; returns its id. */
    static UUID create(Person person, String url, String... events) {
        var created = person.post(NEW, "url", url, "events", String.join("\n", events), "enabled", "on");
        assertEquals(303, created.status(), created.body());
        return idIn(created.location());
    }

    /** The subscription a redirect goes to: {@code /console/webhooks/<id>}. */
    static UUID idIn(String location) {
        assertTrue(location.matches("/console/webhooks/[0-9a-f-]{36}"), location);
        return UUID.fromString(location.substring(location.lastIndexOf('/') + 1));
    }

    /** The signing secret a page shows once, or null. */
    static String secretOn(ConsoleClient.Page page) {
        return page.firstMatch("value=\"(whsec_[A-Za-z0-9+/]{43}=)\"");
    }

    /** The error shown next to {@code field}'s input, and the summary's link to it, both start with {@code text}. */
    static void refusedAt(ConsoleClient.Page page, String field, String text) {
        assertTrue(page.body().contains("<a href=\"#f-" + field + "\">" + text), "the summary links to the field: "
                + text + "\n" + page.body());
        assertTrue(page.body().matches("(?s).*id=\"f-" + field + "-note\">\\s*<p class=\"error\">.*"),
                "the message is next to its field: " + field + "\n" + page.body());
        assertTrue(page.body().contains("aria-invalid=\"true\""));
    }

    static JsonNode apiSubscription(TestPlatform platform, Person person, UUID id) {
        var got = platform.get(API + "/" + id, person.key());
        assertEquals(200, got.status(), got.body());
        return got.data();
    }

    static List<String> activity(TestPlatform platform, UUID workspace) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT action || ' ' || coalesce(target, '') FROM lnp_core.console_activity WHERE workspace_id = :ws ORDER BY id")
                .bind("ws", workspace).mapTo(String.class).list());
    }

    static void publish(TestPlatform platform, Person person, String event) {
        var published = platform.post("/api/v1/probe/events", person.key(), "{\"count\": 1, \"event\": \"" + event + "\"}");
        assertEquals(201, published.status(), published.body());
    }

    @Test
    void anOwnerCreatesASubscriptionAndSeesItsSecretOnlyOnce(TestPlatform platform) throws Exception {
        var owner = owner(platform, "create");
        var list = owner.client().get("/console/webhooks");
        assertEquals(200, list.status(), list.body());
        assertTrue(list.body().contains("No subscriptions yet"));
        assertTrue(list.body().contains("href=\"/console/webhooks\" aria-current=\"page\""), "navigation marks the section");
        assertTrue(list.body().contains("href=\"/console/webhooks/new\""), "an owner may create one");
        assertTrue(owner.client().get(NEW).body().contains("id=\"f-events\""));
        assertTrue(owner.client().get("/console/webhooks/events").body().contains("<td>probe.burst</td>"),
                "the events come from the registry");

        try (var receiver = new WebhookReceiver()) {
            var created = owner.post(NEW, "url", receiver.url("/hook"), "events", "probe.burst\nburst.legacy\r\nprobe.*",
                    "description", "CRM sync", "enabled", "on");
            assertEquals(303, created.status(), created.body());
            UUID id = idIn(created.location());
            var shown = owner.client().get(created.location());
            assertEquals(200, shown.status(), shown.body());
            String secret = secretOn(shown);
            assertNotNull(secret, shown.body());
            assertTrue(shown.body().contains("shown only this once"));
            assertTrue(shown.body().contains("The subscription was created."));

            JsonNode api = apiSubscription(platform, owner, id);
            assertEquals("[\"probe.burst\",\"probe.*\"]", api.path("events").toString(), "the API's own normalisation");
            assertEquals("CRM sync", api.path("description").asText());
            assertTrue(api.path("enabled").asBoolean());

            var listed = owner.client().get("/console/webhooks");
            assertTrue(listed.body().contains(receiver.url("/hook")));
            assertFalse(listed.body().contains(secret), "the secret is never shown again");
            var again = owner.client().get("/console/webhooks/" + id);
            assertEquals(200, again.status());
            assertFalse(again.body().contains(secret), "not even on the page it was shown on");
            assertNull(secretOn(again));

            // The secret on the page is the one deliveries are signed with.
            publish(platform, owner, "probe.burst");
            await(Duration.ofSeconds(10), "a delivery", () -> receiver.received().size() == 1);
            var request = receiver.received().get(0);
            WebhookSignature.verify(secret, request.timestamp(), request.signature(), request.body(), Instant.now());
        }
        assertTrue(activity(platform, owner.workspace()).get(0).startsWith("webhook.created "),
                activity(platform, owner.workspace()).toString());
    }

    @Test
    void badInputIsAReadablePageNamingTheFieldAndCreatesNothing(TestPlatform platform) {
        var owner = owner(platform, "bad-input");
        // 400: the form breaks the API's schema; 422: the service's rules refuse it, as the API answers them.
        record Case(String url, String events, String other, String description, int status, String expected) {
        }
        List<Case> cases = List.of(
                new Case("ftp://example.com/hook", "probe.burst", "", "", 422, "Receiver URL: "),
                new Case("http://10.1.2.3/hook", "probe.burst", "", "", 422, "Receiver URL: "),
                new Case("http://169.254.169.254/latest", "probe.burst", "", "", 422, "link-local"),
                new Case("", "probe.burst", "", "", 400, "Receiver URL: Fill in Receiver URL."),
                new Case("http://127.0.0.1:9/hook", "", "nope.event", "", 422,
                        "Events: unknown event nope.event (see the event catalog)"),
                new Case("http://127.0.0.1:9/hook", "", "", "", 400, "Events: Give at least 1 lines."),
                new Case("http://127.0.0.1:9/hook", "", "nope.*", "", 422, "Events: no event name starts with nope."),
                new Case("http://127.0.0.1:9/hook", "probe.burst", "", "x".repeat(501), 400,
                        "Description: Write at most 500"));
        for (Case c : cases) {
            String events = (c.events() + "\n" + c.other()).strip();
            var page = owner.post(NEW, "url", c.url(), "events", events, "description", c.description(), "enabled", "on");
            assertEquals(c.status(), page.status(), c + "\n" + page.body());
            assertTrue(page.body().contains(c.expected()), c + "\n" + page.body());
            assertTrue(page.body().contains("role=\"alert\""));
            String field = c.description().length() > 500 ? "description" : c.events().isEmpty() ? "events" : "url";
            String label = Map.of("url", "Receiver URL:", "events", "Events:", "description", "Description:").get(field);
            refusedAt(page, field, label);
            if (!c.url().isEmpty()) {
                assertTrue(page.body().contains("value=\"" + c.url() + "\""), "the form keeps what was typed");
            }
            assertTrue(page.body().contains(">" + events + "</textarea>"), "and the events typed");
        }
        assertEquals(0, platform.get(API, owner.key()).data().size());
        assertTrue(activity(platform, owner.workspace()).isEmpty());
    }

    @Test
    void editSwitchOffAndOnAndDeleteChangeTheSubscriptionAndAreAudited(TestPlatform platform) {
        var owner = owner(platform, "edit");
        UUID id = create(owner, "http://127.0.0.1:9/a", "probe.burst");
        String path = "/console/webhooks/" + id;

        var saved = owner.post(path + "/edit", "url", "http://127.0.0.1:9/b", "events", "probe.other\nprobe.*",
                "description", "changed");
        assertEquals(303, saved.status(), saved.body());
        assertEquals(path, saved.location());
        assertTrue(owner.client().get(saved.location()).body().contains("The subscription was saved."));
        JsonNode api = apiSubscription(platform, owner, id);
        assertEquals("http://127.0.0.1:9/b", api.path("url").asText());
        assertEquals("[\"probe.other\",\"probe.*\"]", api.path("events").toString());
        assertEquals("changed", api.path("description").asText());

        var edit = owner.client().get(path + "/edit");
        assertEquals(200, edit.status(), edit.body());
        assertTrue(edit.body().contains(">probe.other\nprobe.*</textarea>"), "the form starts with the subscription's events");
        var badEdit = owner.post(path + "/edit", "url", "http://192.168.1.1/x", "events", "probe.other");
        assertEquals(422, badEdit.status());
        refusedAt(badEdit, "url", "Receiver URL: ");
        assertTrue(badEdit.body().contains("value=\"http://192.168.1.1/x\""), "the edit form keeps the input");
        assertEquals("http://127.0.0.1:9/b", apiSubscription(platform, owner, id).path("url").asText());
        var noEvents = owner.post(path + "/edit", "url", "http://127.0.0.1:9/b", "events", "");
        assertEquals(400, noEvents.status());
        refusedAt(noEvents, "events", "Events: ");
        assertEquals(2, apiSubscription(platform, owner, id).path("events").size(), "the events stay");

        var off = owner.post(path + "/switch-off");
        assertEquals(303, off.status(), off.body());
        assertFalse(apiSubscription(platform, owner, id).path("enabled").asBoolean());
        var shownOff = owner.client().get(off.location()).body();
        assertTrue(shownOff.contains("switched off"));
        assertTrue(shownOff.contains("Switch on</button>"), "the page offers the opposite switch");
        var on = owner.post(path + "/switch-on");
        assertEquals(303, on.status());
        assertTrue(apiSubscription(platform, owner, id).path("enabled").asBoolean());

        var unconfirmed = owner.post(path + "/delete");
        assertEquals(422, unconfirmed.status());
        assertTrue(unconfirmed.body().contains("Delete: tick"), unconfirmed.body());
        var denied = owner.post(path + "/delete", "confirm", "no");
        assertEquals(422, denied.status());
        assertEquals(200, platform.get(API + "/" + id, owner.key()).status(), "still there");
        var deleted = owner.post(path + "/delete", "confirm", "yes");
        assertEquals(303, deleted.status());
        assertEquals("/console/webhooks", deleted.location());
        assertEquals(404, platform.get(API + "/" + id, owner.key()).status());
        assertEquals(404, owner.client().get(path).status());

        var actions = activity(platform, owner.workspace()).stream().map(a -> a.substring(0, a.indexOf(' '))).toList();
        assertEquals(List.of("webhook.created", "webhook.updated", "webhook.switched_off", "webhook.switched_on",
                "webhook.deleted"), actions);
    }

    @Test
    void rotatingShowsTheNewSecretOnceAndBothSignDuringTheOverlap(TestPlatform platform) throws Exception {
        var owner = owner(platform, "rotate");
        try (var receiver = new WebhookReceiver()) {
            var created = owner.post(NEW, "url", receiver.url("/r"), "events", "probe.burst", "enabled", "on");
            UUID id = idIn(created.location());
            String first = secretOn(owner.client().get(created.location()));
            assertNotNull(first);

            var rotated = owner.post("/console/webhooks/" + id + "/rotate-secret");
            assertEquals(303, rotated.status(), rotated.body());
            assertEquals("/console/webhooks/" + id, rotated.location());
            var shown = owner.client().get(rotated.location());
            String second = secretOn(shown);
            assertNotNull(second, shown.body());
            assertFalse(second.equals(first));
            assertTrue(shown.body().contains("The previous secret keeps signing too until"), shown.body());
            assertFalse(owner.client().get("/console/webhooks/" + id).body().contains(second));

            var test = owner.post("/console/webhooks/" + id + "/test");
            assertEquals(303, test.status(), test.body());
            assertTrue(test.location().matches("/console/webhooks/" + id + "/deliveries/[0-9a-f-]{36}"),
                    test.location());
            await(Duration.ofSeconds(10), "the test delivery", () -> receiver.received().size() == 1);
            var request = receiver.received().get(0);
            assertEquals("webhooks.test", request.event());
            // During the overlap the previous secret signs X-Service-Signature and the new one X-Service-Signature-Next.
            WebhookSignature.verify(first, request.timestamp(), request.signature(), request.body(), Instant.now());
            String next = request.header(WebhookSignature.NEXT_SIGNATURE_HEADER).stream().findFirst().orElse(null);
            WebhookSignature.verify(second, request.timestamp(), next, request.body(), Instant.now());
            var delivery = owner.client().get(test.location());
            assertEquals(200, delivery.status());
            assertTrue(delivery.body().contains("A test delivery (webhooks.test) is queued"));
        }
        var actions = activity(platform, owner.workspace());
        assertTrue(actions.get(1).startsWith("webhook.secret_rotated"), actions.toString());
        assertTrue(actions.get(2).startsWith("webhook.test_sent"), actions.toString());
    }

    @Test
    void theHistoryShowsEachAttemptAndRedeliverAndRecoverSendAgain(TestPlatform platform) {
        var owner = owner(platform, "history");
        var answer = new AtomicInteger(410);
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(answer.get()).withBody(answer.get() == 410 ? "gone <b>away</b>" : "ok"));
            UUID id = create(owner, receiver.url("/h"), "probe.burst");
            String path = "/console/webhooks/" + id;
            publish(platform, owner, "probe.burst");
            await(Duration.ofSeconds(10), "the failed attempt", () -> owner.client().get(path + "/deliveries?status=failed")
                    .body().contains("/deliveries/"));
            var failedList = owner.client().get(path + "/deliveries?status=failed");
            String deliveryId = failedList.firstMatch("/deliveries/([0-9a-f-]{36})");
            assertTrue(failedList.body().contains("HTTP 410"), failedList.body());
            assertFalse(owner.client().get(path + "/deliveries?status=delivered").body().contains("/deliveries/"));
            assertTrue(owner.client().get(path).body().contains(path + "/deliveries/" + deliveryId),
                    "the subscription's page shows its recent deliveries");

            var delivery = owner.client().get(path + "/deliveries/" + deliveryId);
            assertEquals(200, delivery.status(), delivery.body());
            assertTrue(delivery.body().contains("<td>410</td>"), delivery.body());
            assertTrue(delivery.body().contains("gone &lt;b&gt;away&lt;/b&gt;"), "the response excerpt, escaped");
            assertTrue(delivery.body().contains("the receiver answered 410"), "the attempt's error");

            answer.set(200);
            var redelivered = owner.post(path + "/deliveries/" + deliveryId + "/redeliver");
            assertEquals(303, redelivered.status(), redelivered.body());
            await(Duration.ofSeconds(10), "the redelivery", () -> receiver.receivedFor(deliveryId).size() == 2);
            await(Duration.ofSeconds(10), "the second attempt recorded", () -> owner.client()
                    .get(path + "/deliveries/" + deliveryId).body().contains("<td>200</td>"));
            assertTrue(owner.client().get(path + "/deliveries/" + deliveryId).body().contains("delivered"));

            answer.set(410);
            publish(platform, owner, "probe.burst");
            await(Duration.ofSeconds(10), "a second failure", () -> receiver.received().size() == 3
                    && owner.client().get(path + "/deliveries?status=failed").body().contains("/deliveries/"));
            answer.set(200);
            String since = LocalDateTime.ofInstant(Instant.now().minusSeconds(3600), ZoneOffset.UTC).withSecond(0)
                    .withNano(0).toString();
            assertEquals(200, owner.client().get(path + "/recover").status());
            var recovered = owner.post(path + "/recover", "since", since);
            assertEquals(303, recovered.status(), recovered.body());
            assertEquals(path, recovered.location());
            assertTrue(owner.client().get(recovered.location()).body().contains("1 failed delivery is queued again"));
            await(Duration.ofSeconds(10), "the recovered delivery", () -> receiver.received().size() == 4);

            var badSince = owner.post(path + "/recover", "since", "yesterday");
            assertEquals(400, badSince.status());
            refusedAt(badSince, "since", "Since (UTC): Give a date and time in UTC");
            var noSuchDay = owner.post(path + "/recover", "since", "2026-02-30T09:30");
            assertEquals(422, noSuchDay.status());
            refusedAt(noSuchDay, "since", "Since (UTC): No such date or time");
            var badFilter = owner.client().get(path + "/deliveries?status=lost");
            assertEquals(400, badFilter.status());
            assertTrue(badFilter.body().contains("Status: choose pending, delivered, failed"), badFilter.body());
        }
        var actions = activity(platform, owner.workspace());
        assertTrue(actions.stream().anyMatch(a -> a.startsWith("webhook.redelivered")), actions.toString());
        assertTrue(actions.stream().anyMatch(a -> a.startsWith("webhook.recovered")), actions.toString());
    }

    @Test
    void aDeliveryBeingSentCannotBeRedeliveredAndSaysSo(TestPlatform platform) {
        var owner = owner(platform, "in-flight");
        UUID id = create(owner, "http://127.0.0.1:9/x", "probe.burst");
        var test = owner.post("/console/webhooks/" + id + "/test");
        String deliveryId = test.location().replaceAll(".*/deliveries/([0-9a-f-]{36}).*", "$1");
        // Claimed as a dispatcher claims it, once its first attempt is recorded (so that attempt cannot clear it).
        await(Duration.ofSeconds(10), "a claim between attempts", () -> platform.jdbi().withHandle(h -> h.createUpdate("""
                        UPDATE lnp_core.webhook_deliveries SET lease_until = now() + interval '1 hour'
                         WHERE id = :id AND attempts >= 1 AND lease_until IS NULL
                        """)
                .bind("id", UUID.fromString(deliveryId)).execute()) == 1);
        var refused = owner.post("/console/webhooks/" + id + "/deliveries/" + deliveryId + "/redeliver");
        assertEquals(409, refused.status(), refused.body());
        assertTrue(refused.body().contains("being sent right now"), refused.body());
    }

    @Test
    void theCatalogListsEveryEventWithItsModuleAndAliases(TestPlatform platform) {
        var owner = owner(platform, "catalog");
        var page = owner.client().get("/console/webhooks/events");
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().matches("(?s).*<td>probe\\.burst</td>\\s*<td>probe</td>\\s*<td>burst\\.legacy</td>.*"),
                page.body());
        assertTrue(page.body().contains("<td>probe.other</td>"));
        assertTrue(page.body().matches("(?s).*<td>webhooks\\.test</td>\\s*<td>core</td>.*"));
    }

    @Test
    void aSubscriptionSwitchedOffForFailingShowsItsNotice(TestPlatform platform) {
        var owner = owner(platform, "notices");
        assertTrue(owner.client().get("/console/webhooks/notices").body().contains("No notices."));
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(410));
            UUID id = create(owner, receiver.url("/n"), "probe.burst");
            // Failing for six days already: the next failed attempt switches it off (after five).
            platform.jdbi().useHandle(h -> h.createUpdate(
                            "UPDATE lnp_core.webhook_subscriptions SET failing_since = now() - interval '6 days' WHERE id = :id")
                    .bind("id", id).execute());
            publish(platform, owner, "probe.burst");
            await(Duration.ofSeconds(10), "the switch-off", () -> !apiSubscription(platform, owner, id)
                    .path("enabled").asBoolean());
            var notices = owner.client().get("/console/webhooks/notices");
            assertEquals(200, notices.status());
            assertTrue(notices.body().contains("webhook_subscription_disabled"), notices.body());
            assertTrue(notices.body().contains("was switched off"), notices.body());
            assertTrue(notices.body().contains("href=\"/console/webhooks/" + id + "\""));
            var shown = owner.client().get("/console/webhooks/" + id);
            assertTrue(shown.body().contains("<dd>off: failing"), shown.body());
            assertTrue(owner.client().get("/console/webhooks").body().contains(">Notices (1)</a>"));
        }
    }

    @Test
    void membersGetAReadable403AndChangeNothing(TestPlatform platform) {
        var owner = owner(platform, "roles");
        UUID id = create(owner, "http://127.0.0.1:9/m", "probe.burst");
        var member = signIn(platform, owner.workspace(), "member");
        String csrf = member.csrf("/console/sessions");
        for (String path : List.of("/console/webhooks", "/console/webhooks/events", "/console/webhooks/notices",
                "/console/webhooks/" + id)) {
            var page = member.client().get(path);
            assertEquals(403, page.status(), path);
            assertTrue(page.body().contains("Only owners and admins"), page.body());
            assertFalse(page.body().contains("href=\"/console/webhooks\""), "no Webhooks link for a member");
        }
        var create = member.postWith(NEW, csrf, "url", "http://127.0.0.1:9/x", "events", "probe.burst");
        assertEquals(403, create.status());
        for (String action : List.of("/edit", "/switch-off", "/delete", "/rotate-secret", "/test", "/recover")) {
            var refused = member.postWith("/console/webhooks/" + id + action, csrf, "enabled", "false",
                    "confirm", "yes", "since", "2026-01-01T00:00");
            assertEquals(403, refused.status(), action);
        }
        JsonNode api = apiSubscription(platform, owner, id);
        assertTrue(api.path("enabled").asBoolean());
        assertEquals(1, platform.get(API, owner.key()).data().size());
        assertEquals(0, platform.get(API + "/" + id + "/deliveries", owner.key()).data().size(), "no test sent");

        var admin = signIn(platform, owner.workspace(), "admin");
        assertEquals(200, admin.client().get("/console/webhooks").status());
        assertEquals(303, admin.post("/console/webhooks/" + id + "/switch-off").status());
        assertFalse(apiSubscription(platform, owner, id).path("enabled").asBoolean());
    }

    @Test
    void formsWithoutTheTokenOrFromAnotherOriginAreRefused(TestPlatform platform) {
        var owner = owner(platform, "csrf");
        UUID id = create(owner, "http://127.0.0.1:9/c", "probe.burst");
        var noToken = owner.postWith("/console/webhooks/" + id + "/delete", null, "confirm", "yes");
        assertEquals(403, noToken.status());
        var wrongToken = owner.postWith("/console/webhooks/" + id + "/delete", "not-the-token", "confirm", "yes");
        assertEquals(403, wrongToken.status());
        String csrf = owner.csrf("/console/webhooks");
        owner.client().origin("http://evil.example");
        var foreign = owner.postWith("/console/webhooks/" + id + "/delete", csrf, "confirm", "yes");
        assertEquals(403, foreign.status());
        assertTrue(foreign.body().contains("was not sent from"));
        owner.client().origin(owner.client().base());
        assertEquals(200, platform.get(API + "/" + id, owner.key()).status(), "nothing deleted");
    }

    @Test
    void idsOfAnotherWorkspaceAreNotFound(TestPlatform platform) {
        var mine = owner(platform, "mine");
        var theirs = owner(platform, "theirs");
        UUID theirId = create(theirs, "http://127.0.0.1:9/t", "probe.burst");
        var theirTest = theirs.post("/console/webhooks/" + theirId + "/test");
        String theirDelivery = theirTest.location().replaceAll(".*/deliveries/([0-9a-f-]{36}).*", "$1");

        assertEquals(404, mine.client().get("/console/webhooks/" + theirId).status());
        assertEquals(404, mine.client().get("/console/webhooks/" + theirId + "/deliveries/" + theirDelivery).status());
        assertEquals(404, mine.client().get("/console/webhooks/not-an-id").status());
        var page = mine.client().get("/console/webhooks/" + UUID.randomUUID() + "/deliveries/xyz");
        assertEquals(404, page.status());
        assertTrue(page.body().contains("was not found in this workspace"), page.body());
        for (String action : List.of("/switch-off", "/switch-on", "/delete", "/rotate-secret", "/test", "/recover",
                "/deliveries/" + theirDelivery + "/redeliver")) {
            var refused = mine.post("/console/webhooks/" + theirId + action, "enabled", "false", "confirm", "yes",
                    "since", "2026-01-01T00:00");
            assertEquals(404, refused.status(), action + "\n" + refused.body());
        }
        assertEquals(404, mine.post("/console/webhooks/" + theirId + "/edit", "url", "http://127.0.0.1:9/z",
                "events", "probe.burst").status());
        assertEquals(404, mine.client().get("/console/webhooks/" + theirId + "/edit").status());
        JsonNode still = apiSubscription(platform, theirs, theirId);
        assertTrue(still.path("enabled").asBoolean());
        assertEquals("http://127.0.0.1:9/t", still.path("url").asText());
        assertEquals(1, platform.get(API + "/" + theirId + "/deliveries", theirs.key()).data().size());
    }
}
