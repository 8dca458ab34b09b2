package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.internal.mail.Mailbox;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Members on duty for the chat get one mail per hand-off (through the platform's mailer, read back from the local
 * mailbox), with the visitor's reason in the subject and a link to the conversation; members off duty get none, and
 * with nobody on duty the hand-off is only in the inbox.
 */
@PlatformTest(plugins = {"chatbot"})
class ChatDutyMailTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatDutyMailTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void eachMemberOnDutyIsMailedOnceWithTheReasonAndALink() throws Exception {
        UUID ws = platform.createWorkspace("duty-mail");
        String key = chat.createWidget(ws, "").get("key").asText();
        TestPerson onDuty = platform.person(ws, "member");
        TestPerson alsoOnDuty = platform.person(ws, "admin");
        TestPerson offDuty = platform.person(ws, "member");

        assertTrue(onDuty.get("/app/chat").body().contains("Go on duty"), "the inbox offers the toggle");
        TestPerson.Page on = onDuty.post(InboxPages.DUTY);
        assertEquals(303, on.status(), on.body());
        assertTrue(onDuty.get("/app/chat").body().contains("Go off duty"), "the inbox says the member is on duty");
        assertEquals(303, alsoOnDuty.post(InboxPages.DUTY).status());
        // Going on and off again leaves this member off duty.
        assertEquals(303, offDuty.post(InboxPages.DUTY).status());
        assertEquals(303, offDuty.post(InboxPages.DUTY).status());
        assertTrue(offDuty.get("/app/chat").body().contains("Go on duty"));

        String sid = handOff(key, "My parcel\nnever arrived");

        List<Mailbox.Summary> mails = awaitMail(onDuty.email(), 1);
        assertEquals(1, mails.size(), "one mail per hand-off: " + mails);
        assertEquals("Chat: a visitor asks for a person: My parcel never arrived", mails.get(0).subject());
        assertEquals(DutyRoster.MAIL_KIND, mails.get(0).kind());
        assertEquals(ws, mails.get(0).workspaceId());
        String text = mailbox().show(mails.get(0).id()).orElseThrow().text();
        assertTrue(text.matches("(?s).*https?://\\S+/app/chat/" + sid + "\\s.*"), "a link to the conversation: " + text);
        assertEquals(1, awaitMail(alsoOnDuty.email(), 1).size());
        Thread.sleep(300);
        assertEquals(0, mailbox().list(new Mailbox.Query(offDuty.email(), null, 10)).size(), "off duty: no mail");
        assertEquals(1, mailbox().list(new Mailbox.Query(onDuty.email(), null, 10)).size(), "still one mail");
    }

    @Test
    void withNobodyOnDutyNoMailGoesOutAndTheInboxStillShowsTheHandOff() throws Exception {
        UUID ws = platform.createWorkspace("duty-nobody");
        String key = chat.createWidget(ws, "").get("key").asText();
        TestPerson member = platform.person(ws, "member");
        String sid = handOff(key, "Nobody will be mailed for this");
        assertTrue(member.get("/app/chat").body().contains("Nobody will be mailed for this"));
        assertTrue(member.get("/app/chat/" + sid).body().contains("Nobody will be mailed for this"));
        assertEquals(0, mailbox().list(new Mailbox.Query(null, ws, 10)).size(), "no mail in this workspace");
    }

    @Test
    void aMemberOnDutyInAnotherWorkspaceIsNotMailed() throws Exception {
        UUID other = platform.createWorkspace("duty-elsewhere");
        TestPerson elsewhere = platform.person(other, "member");
        assertEquals(303, elsewhere.post(InboxPages.DUTY).status());
        UUID ws = platform.createWorkspace("duty-here");
        handOff(chat.createWidget(ws, "").get("key").asText(), "Only this workspace's team");
        Thread.sleep(300);
        assertEquals(0, mailbox().list(new Mailbox.Query(elsewhere.email(), null, 10)).size());
    }

    private String handOff(String key, String reason) throws Exception {
        JsonNode s = chat.session(key);
        String sid = s.get("session_id").asText();
        try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), sid, null)) {
            String body = "{\"request_human\":true}";
            assertEquals(202, chat.message(s, reason, body).status());
            stream.next("handoff.opened");
            stream.next("run.completed");
        }
        return sid;
    }

    private Mailbox mailbox() {
        return platform.platform().mail().mailbox();
    }

    private List<Mailbox.Summary> awaitMail(String to, int count) throws InterruptedException {
        for (int i = 0; i < 50; i++) {
            var found = mailbox().list(new Mailbox.Query(to, null, 10));
            if (found.size() >= count) {
                return found;
            }
            Thread.sleep(100);
        }
        return mailbox().list(new Mailbox.Query(to, null, 10));
    }
}
