package dev.lnp.testkit.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.lnp.testkit.OperatorCli.Result;
import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.web.console.ConsoleTemplates;
import dev.lnp.web.console.TemplateSamples;
import jakarta.mail.internet.MimeMessage;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code platform doctor}'s template and mail checks: every template of the core renders; a test message reaches the local mailbox, or the SMTP server (GreenMail) with a sign-in, and each SMTP
 * failure is a FAIL naming the setting to fix.
 */
@PlatformTest(plugins = "probe")
class DoctorMailAndTemplatesTest {

    private static final String USER = "lnp";
    private static final String PASSWORD = "relay-secret";

    @Test
    void everyTemplateRendersAndATestMessageReachesTheLocalMailbox(TestPlatform platform) {
        Result doctor = OperatorCli.run(platform, "doctor");
        assertEquals(0, doctor.exit(), doctor.out() + doctor.err());
        int templates = TemplateSamples.core(new ConsoleTemplates()).size();
        assertTrue(doctor.out().contains("ok    templates: " + templates + " console and mail templates render"),
                doctor.out());
        Matcher shown = Pattern.compile("ok    mail: no SMTP server configured \\(lnp.mail.host\\): a test message "
                + "is in the local mailbox, see `platform mail show ([0-9a-f-]{36})`").matcher(doctor.out());
        assertTrue(shown.find(), doctor.out());

        Result mail = OperatorCli.run(platform, "mail", "show", shown.group(1), "--json");
        assertEquals(0, mail.exit(), mail.err());
        JsonNode message = mail.json();
        assertEquals("doctor-test", message.path("kind").asText(), message.toString());
        assertEquals("no-reply@localhost", message.path("to").asText(), "to the From address: " + message);
        assertTrue(message.path("text").asText().contains("test message from `platform doctor`"), message.toString());
        assertTrue(message.path("html").asText().contains("Open the console"), "rendered from the mail template");

        Result addressed = OperatorCli.run(platform, "doctor", "--mail-to", "ops@example.com");
        assertEquals(0, addressed.exit(), addressed.out());
        assertTrue(OperatorCli.run(platform, "mail", "list", "--json").out().contains("ops@example.com"));
    }

    /**
     * The webhooks pages are page API views the console renders with its own templates (which the doctor checks
     * above): the subsystem ships none that could go unchecked.
     */
    @Test
    void theWebhooksSubsystemShipsNoTemplatesOfItsOwn() {
        assertFalse(Files.exists(Path.of("../platform-webhooks/src/main/jte")),
                "a template of the webhooks module would need a sample the doctor renders");
    }

    @Test
    void withSmtpTheDoctorSignsInAndSendsATestMessageWhenGivenARecipient(TestPlatform platform) throws Exception {
        GreenMail smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort())
                .withConfiguration(GreenMailConfiguration.aConfig().withUser(USER, PASSWORD));
        smtp.start();
        try {
            int port = smtp.getSmtp().getPort();
            Result signedIn = OperatorCli.run(platform, smtp(port, PASSWORD), "doctor");
            assertEquals(0, signedIn.exit(), signedIn.out());
            assertTrue(signedIn.out().contains("ok    mail: 127.0.0.1:" + port + " (none) accepts this node's "
                    + "connection and sign-in; `platform doctor --mail-to ADDRESS` also sends a test message"),
                    signedIn.out());
            assertEquals(0, smtp.getReceivedMessages().length, "nothing is sent without a recipient");

            Result sent = OperatorCli.run(platform, smtp(port, PASSWORD), "doctor", "--mail-to", "ada@example.com");
            assertEquals(0, sent.exit(), sent.out());
            assertTrue(sent.out().contains("ok    mail: 127.0.0.1:" + port + " (none) accepted a test message to "
                    + "ada@example.com"), sent.out());
            MimeMessage received = smtp.getReceivedMessages()[0];
            assertEquals("Test message from the workspace platform", received.getSubject());
            assertEquals("ada@example.com", received.getAllRecipients()[0].toString());

            Result badAddress = OperatorCli.run(platform, smtp(port, PASSWORD), "doctor", "--mail-to", "not mail");
            assertEquals(1, badAddress.exit(), badAddress.out());
            assertTrue(badAddress.out().contains("FAIL  mail: to must be one plain ASCII address")
                    && badAddress.out().contains("-> give --mail-to one plain address"), badAddress.out());

            Result refused = OperatorCli.run(platform, smtp(port, "wrong"), "doctor");
            assertEquals(1, refused.exit(), refused.out());
            assertTrue(refused.out().contains("FAIL  mail: 127.0.0.1:" + port + " answered: AuthenticationFailed")
                    && refused.out().contains("-> the server refused the sign-in: check lnp.mail.user and "
                            + "lnp.mail.password"), refused.out());
        } finally {
            smtp.stop();
        }
    }

    @Test
    void anSmtpServerThatDoesNotAnswerIsAFailNamingHostAndPort(TestPlatform platform) throws Exception {
        int closed;
        try (var socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Result doctor = OperatorCli.run(platform, smtp(closed, PASSWORD), "doctor");
        assertEquals(1, doctor.exit(), doctor.out());
        assertTrue(doctor.out().contains("FAIL  mail: 127.0.0.1:" + closed + " answered: ")
                && doctor.out().contains("-> nothing answers there: check lnp.mail.host and lnp.mail.port"),
                doctor.out());
        assertTrue(doctor.out().endsWith("1 check(s) failed."), doctor.out());
    }

    private static Map<String, String> smtp(int port, String password) {
        return Map.of("lnp.mail.host", "127.0.0.1", "lnp.mail.port", Integer.toString(port),
                "lnp.mail.security", "none", "lnp.mail.user", USER, "lnp.mail.password", password,
                "lnp.mail.connect_timeout_ms", "2000");
    }
}
