package dev.lnp.testkit.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.lnp.api.Json;
import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.api.internal.mail.Mailbox;
import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.TestPlatform;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Mail through the real path: a plugin or core code queues it, the background sender delivers it with Jakarta
 * Mail to GreenMail (a real SMTP server in this JVM), and the outcome is recorded in the outbox.
 */
class SmtpMailTest {

    private static final String USER = "lnp";
    private static final String PASSWORD = "relay-secret";

    /** Short delays, so retries happen within a test. */
    private static Map<String, String> config(int port, String security, Map<String, String> more) {
        Map<String, String> config = new HashMap<>();
        config.put("lnp.mail.host", "127.0.0.1");
        config.put("lnp.mail.port", Integer.toString(port));
        config.put("lnp.mail.security", security);
        config.put("lnp.mail.from", "Acme Platform <platform@acme.test>");
        config.put("lnp.mail.connect_timeout_ms", "2000");
        config.put("lnp.mail.read_timeout_ms", "5000");
        config.put("lnp.mail.poll_interval_ms", "200");
        config.put("lnp.mail.retry.immediate", "1");
        config.put("lnp.mail.retry.immediate_delay_ms", "50");
        config.put("lnp.mail.retry.first_delay_ms", "300");
        config.put("lnp.mail.retry.max_delay_ms", "600");
        config.putAll(more);
        return config;
    }

    private static GreenMail greenMail(ServerSetup setup) {
        setup.setServerStartupTimeout(30_000); // the build machine is busy; 2 s is not always enough for TLS
        var server = new GreenMail(setup).withConfiguration(GreenMailConfiguration.aConfig().withUser(USER, PASSWORD));
        server.start();
        return server;
    }

    @Test
    void plainAndMultipartMailArriveWithTheirIdsAndTheBodiesAreNotKept() throws Exception {
        GreenMail smtp = greenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        try (var platform = TestPlatform.start("mail-plain", List.of("probe"), null, config(smtp.getSmtp().getPort(),
                "none", Map.of("lnp.mail.user", USER, "lnp.mail.password", PASSWORD)))) {
            var mailer = platform.platform().mail().mailer();
            UUID ws = platform.createWorkspace("Mail");
            String key = platform.key(ws, "probe.write");

            // From a plugin, in its request's transaction.
            var sent = platform.post("/api/v1/probe/mail", key, Json.object().put("to", "ada@example.com")
                    .put("subject", "Grüße – your sign-in link").put("text", "Sign in: http://localhost/s/1").toString());
            assertEquals(201, sent.status(), sent.body());
            assertTrue(!sent.json().path("data").path("local_mailbox").asBoolean());
            UUID plainId = UUID.fromString(sent.json().path("data").path("id").asText());
            // From core code, with an HTML part.
            UUID richId = mailer.send(new OutgoingMail(null, "bob@example.com", "Digest", "Plain digest",
                    "<p>Rich <b>digest</b></p>", "digest"));

            assertTrue(smtp.waitForIncomingEmail(10_000, 2), "two messages arrive");
            MimeMessage plain = received(smtp, m -> to(m).equals("ada@example.com"));
            assertEquals("Grüße – your sign-in link", plain.getSubject());
            assertEquals("Acme Platform <platform@acme.test>", plain.getFrom()[0].toString());
            assertTrue(plain.isMimeType("text/plain"), plain.getContentType());
            assertEquals("Sign in: http://localhost/s/1", plain.getContent().toString().strip());
            assertEquals("auto-generated", plain.getHeader("Auto-Submitted", null));
            Mailbox mailbox = platform.platform().mail().mailbox();
            assertEquals(mailbox.show(plainId).orElseThrow().messageId(), plain.getMessageID());

            MimeMessage rich = received(smtp, m -> to(m).equals("bob@example.com"));
            assertTrue(rich.isMimeType("multipart/alternative"), rich.getContentType());
            var parts = (MimeMultipart) rich.getContent();
            assertEquals(2, parts.getCount());
            assertTrue(parts.getBodyPart(0).isMimeType("text/plain"));
            assertEquals("Plain digest", parts.getBodyPart(0).getContent().toString().strip());
            assertTrue(parts.getBodyPart(1).isMimeType("text/html"));
            assertTrue(parts.getBodyPart(1).getContent().toString().contains("<b>digest</b>"));
            assertTrue(!rich.getMessageID().equals(plain.getMessageID()), "one Message-ID per message");

            var done = awaitState(mailbox, richId, "sent");
            assertEquals(1, done.summary().attempts());
            assertNull(done.text(), "the body is not kept once SMTP has the message");
            assertNull(done.html());
            assertEquals("sent", awaitState(mailbox, plainId, "sent").summary().state());
            assertTrue(!mailer.localMailbox());

            var shown = OperatorCli.run(platform, "mail", "show", richId.toString());
            assertEquals(0, shown.exit(), shown.err());
            assertTrue(shown.out().contains("State:      sent (1 attempt)"), shown.out());
            assertTrue(shown.out().contains("(the body is not kept once the SMTP server has accepted the mail)"));
        } finally {
            smtp.stop();
        }
    }

    @Test
    void anSmtpOutageIsRetriedWithBackoffAndTheMailIsDeliveredOnce() throws Exception {
        GreenMail first = greenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        int port = first.getSmtp().getPort();
        first.stop(); // the SMTP server is down
        GreenMail smtp = null;
        try (var platform = TestPlatform.start("mail-outage", List.of("probe"), null, config(port, "none",
                Map.of("lnp.mail.retry.max_attempts", "100")))) {
            Mailbox mailbox = platform.platform().mail().mailbox();
            UUID id = platform.platform().mail().mailer().send(new OutgoingMail(null, "carol@example.com",
                    "Invitation", "Join us", null, "invitation"));
            var waiting = awaitMail(mailbox, id, m -> m.summary().attempts() >= 2, "at least two failed attempts");
            assertEquals("pending", waiting.summary().state());
            assertTrue(waiting.summary().lastError().contains("Connect"), waiting.summary().lastError());
            assertTrue(waiting.text() != null, "kept until delivered");

            smtp = greenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
            var sent = awaitState(mailbox, id, "sent");
            assertTrue(smtp.waitForIncomingEmail(5_000, 1));
            // No sleep for a duplicate: a claim holds the message under its lease (5 min) until its outcome is
            // recorded, so the claims were one after another, every earlier one was refused a connection, and
            // 'sent' is final (nothing claims it again). What arrived is all that will.
            assertEquals(1, smtp.getReceivedMessages().length, "delivered once");
            assertEquals(sent.messageId(), smtp.getReceivedMessages()[0].getMessageID());
            assertNull(sent.summary().lastError());
        } finally {
            if (smtp != null) {
                smtp.stop();
            }
        }
    }

    @Test
    void aServerThatKeepsFailingMakesTheMailFailAfterTheLastAttempt() throws Exception {
        int closedPort;
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        try (var platform = TestPlatform.start("mail-give-up", List.of("probe"), null, config(closedPort, "none",
                Map.of("lnp.mail.retry.max_attempts", "2", "lnp.mail.retry.immediate", "0")))) {
            Mailbox mailbox = platform.platform().mail().mailbox();
            UUID id = platform.platform().mail().mailer().send(new OutgoingMail(null, "dan@example.com", "Hello",
                    "Text", null, "notice"));
            var failed = awaitState(mailbox, id, "failed");
            assertEquals(2, failed.summary().attempts());
            assertTrue(failed.summary().lastError().startsWith("gave up after 2 attempts: "),
                    failed.summary().lastError());
        }
    }

    @Test
    void aPermanentRejectionIsRecordedAtOnceWithoutRetrying() throws Exception {
        try (var rejecting = new RejectingSmtpServer();
                var platform = TestPlatform.start("mail-reject", List.of("probe"), null, config(rejecting.port(),
                        "none", Map.of()))) {
            Mailbox mailbox = platform.platform().mail().mailbox();
            UUID id = platform.platform().mail().mailer().send(new OutgoingMail(null, "nobody@example.com",
                    "Hello", "Text", null, "notice"));
            var failed = awaitState(mailbox, id, "failed");
            assertEquals(1, failed.summary().attempts());
            assertTrue(failed.summary().lastError().startsWith("permanent: "), failed.summary().lastError());
            assertTrue(failed.summary().lastError().contains("550"), failed.summary().lastError());
            assertEquals(1, rejecting.recipientsRefused(), "not retried");
            var listed = OperatorCli.run(platform, "mail", "list", "--json").json();
            assertEquals("failed", listed.get(0).path("state").asText());
        }
    }

    @Test
    void starttlsIsRequiredSoAServerWithoutItNeverGetsTheMailInClear() throws Exception {
        GreenMail smtp = greenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        try (var platform = TestPlatform.start("mail-starttls", List.of("probe"), null,
                config(smtp.getSmtp().getPort(), "starttls", Map.of()))) {
            Mailbox mailbox = platform.platform().mail().mailbox();
            UUID id = platform.platform().mail().mailer().send(new OutgoingMail(null, "erin@example.com", "Secret",
                    "Sign in: http://localhost/s/2", null, "sign-in-link"));
            var waiting = awaitMail(mailbox, id, m -> m.summary().lastError() != null, "a failed attempt");
            assertEquals("pending", waiting.summary().state(), "a deployment fault: kept for retry");
            assertTrue(waiting.summary().lastError().contains("STARTTLS"), waiting.summary().lastError());
            assertEquals(0, smtp.getReceivedMessages().length, "nothing sent in clear");
        } finally {
            smtp.stop();
        }
    }

    @Test
    void implicitTlsDeliversToATrustedServer() throws Exception {
        GreenMail smtps = greenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTPS).dynamicPort());
        try (var platform = TestPlatform.start("mail-tls", List.of("probe"), null,
                config(smtps.getSmtps().getPort(), "tls", Map.of("lnp.mail.tls.trust", "127.0.0.1",
                        "lnp.mail.user", USER, "lnp.mail.password", PASSWORD)))) {
            UUID id = platform.platform().mail().mailer().send(new OutgoingMail(null, "frank@example.com",
                    "Over TLS", "Encrypted on the wire", null, "notice"));
            assertTrue(smtps.waitForIncomingEmail(10_000, 1));
            assertEquals("Over TLS", smtps.getReceivedMessages()[0].getSubject());
            awaitState(platform.platform().mail().mailbox(), id, "sent");
        } finally {
            smtps.stop();
        }
    }

    @Test
    void wrongSmtpCredentialsKeepTheMailWaitingForTheOperator() throws Exception {
        GreenMail smtp = greenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        try (var platform = TestPlatform.start("mail-auth", List.of("probe"), null, config(smtp.getSmtp().getPort(),
                "none", Map.of("lnp.mail.user", USER, "lnp.mail.password", "wrong")))) {
            Mailbox mailbox = platform.platform().mail().mailbox();
            UUID id = platform.platform().mail().mailer().send(new OutgoingMail(null, "gina@example.com", "Hi",
                    "Text", null, "notice"));
            var waiting = awaitMail(mailbox, id, m -> m.summary().lastError() != null, "a failed attempt");
            assertEquals("pending", waiting.summary().state());
            assertTrue(waiting.summary().lastError().contains("AuthenticationFailedException"),
                    waiting.summary().lastError());
            assertEquals(0, smtp.getReceivedMessages().length);
        } finally {
            smtp.stop();
        }
    }

    @Test
    void twoNodesShareTheOutboxAndMailQueuedByAnOperatorCommandIsSentByTheServer() throws Exception {
        GreenMail smtp = greenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        var config = config(smtp.getSmtp().getPort(), "none", Map.of("lnp.mail.concurrency", "2"));
        try (var first = TestPlatform.start("mail-nodes", List.of("probe"), null, config);
                var second = TestPlatform.startOn(first, List.of("probe"), config)) {
            var ids = new java.util.HashSet<UUID>();
            for (int i = 0; i < 12; i++) {
                var node = i % 2 == 0 ? first : second;
                ids.add(node.platform().mail().mailer().send(new OutgoingMail(null, "n" + i + "@example.com",
                        "Message " + i, "Body " + i, null, "bulk")));
            }
            // As `platform workspace create` would: queued from another process, sent by a running node.
            var operatorConfig = dev.lnp.core.config.PlatformConfig.load(null, Map.of(), config);
            ids.add(dev.lnp.mail.PlatformMailer.queueOnly(operatorConfig, first.jdbi()).send(new OutgoingMail(
                    null, "operator@example.com", "From the CLI", "Queued by a command", null, "sign-in-link")));
            assertTrue(smtp.waitForIncomingEmail(20_000, 13), "every message arrives");
            for (UUID id : ids) {
                // One claim each (a claim counts an attempt): one send each, so no duplicate can still arrive.
                assertEquals(1, awaitState(first.platform().mail().mailbox(), id, "sent").summary().attempts(),
                        "claimed once: " + id);
            }
            var messageIds = new java.util.HashSet<String>();
            for (MimeMessage m : smtp.getReceivedMessages()) {
                assertTrue(messageIds.add(m.getMessageID()), "each message once: " + m.getMessageID());
            }
            assertEquals(13, messageIds.size());
        } finally {
            smtp.stop();
        }
    }

    @Test
    void invalidMailSettingsStopTheStartWithTheKeyNamed() {
        var bad = Map.of("lnp.mail.security", "ssl");
        var e = assertThrows(IllegalArgumentException.class,
                () -> TestPlatform.start("mail-bad", List.of("probe"), null, config(25, "ssl", bad)).close());
        assertTrue(e.getMessage().contains("lnp.mail.security must be none, starttls or tls"), e.getMessage());
        var from = assertThrows(IllegalArgumentException.class, () -> TestPlatform.start("mail-bad-from",
                List.of("probe"), null, config(25, "none", Map.of("lnp.mail.from", "not an address"))).close());
        assertTrue(from.getMessage().startsWith("lnp.mail.from must be one address"), from.getMessage());
    }

    private static String to(MimeMessage message) {
        try {
            return message.getRecipients(Message.RecipientType.TO)[0].toString();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static MimeMessage received(GreenMail smtp, Predicate<MimeMessage> which) {
        return java.util.Arrays.stream(smtp.getReceivedMessages()).filter(which).findFirst().orElseThrow();
    }

    private static Mailbox.Message awaitState(Mailbox mailbox, UUID id, String state) throws InterruptedException {
        return awaitMail(mailbox, id, m -> m.summary().state().equals(state), "state " + state);
    }

    private static Mailbox.Message awaitMail(Mailbox mailbox, UUID id, Predicate<Mailbox.Message> condition,
            String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Mailbox.Message last = null;
        while (System.nanoTime() < deadline) {
            last = mailbox.show(id).orElseThrow();
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("mail " + id + " never reached " + what + "; last: " + last);
    }

    /**
     * An SMTP server that refuses every recipient with 550, which GreenMail cannot be told to do: just enough of
     * RFC 5321 for one client session at a time.
     */
    private static final class RejectingSmtpServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        private final java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        private final Thread thread = Thread.ofVirtual().start(this::serve);

        RejectingSmtpServer() throws java.io.IOException {
        }

        int port() {
            return socket.getLocalPort();
        }

        int recipientsRefused() {
            return refused.get();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try (Socket client = socket.accept()) {
                    var in = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII));
                    OutputStream out = client.getOutputStream();
                    reply(out, "220 reject.test ESMTP");
                    for (String line; (line = in.readLine()) != null; ) {
                        String command = line.length() >= 4 ? line.substring(0, 4).toUpperCase() : line;
                        switch (command) {
                            case "EHLO", "HELO" -> reply(out, "250 reject.test");
                            case "MAIL" -> reply(out, "250 OK");
                            case "RCPT" -> {
                                refused.incrementAndGet();
                                reply(out, "550 5.1.1 No such user here");
                            }
                            case "QUIT" -> {
                                reply(out, "221 Bye");
                                client.close();
                            }
                            default -> reply(out, "250 OK");
                        }
                        if (client.isClosed()) {
                            break;
                        }
                    }
                } catch (java.io.IOException e) {
                    // closed, or the client went away: serve the next one
                }
            }
        }

        private static void reply(OutputStream out, String line) throws java.io.IOException {
            out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        @Override
        public void close() throws java.io.IOException {
            socket.close();
            thread.interrupt();
        }
    }
}
