package dev.lnp.testkit.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.internal.mail.Mailbox;
import dev.lnp.testkit.TestPlatform;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * With no SMTP server (the embedded default), the sign-in link goes through the mail service to the local
 * mailbox and is printed on the server's standard output, so a newcomer on one machine can sign in.
 */
class ConsoleLocalMailboxTest {

    @Test
    void theSignInLinkIsPrintedOnStandardOutputAndWorks() {
        PrintStream original = System.out;
        var captured = new ByteArrayOutputStream();
        try (var platform = TestPlatform.start("console-local-mail", List.of("probe"), null, Map.of())) {
            String email = "newcomer-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
            platform.workspaces().create("Local", email);
            var client = new ConsoleClient(platform.port());
            var form = client.get("/console/sign-in");
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                assertEquals(200, client.post("/console/sign-in", ConsoleClient.form("csrf", form.hidden("csrf"),
                        "email", email)).status());
            } finally {
                System.setOut(original);
            }
            String printed = captured.toString(StandardCharsets.UTF_8);
            Matcher link = Pattern.compile("(http://localhost:\\d+/console/sign-in/link\\?token=[A-Za-z0-9_%-]+)")
                    .matcher(printed);
            assertTrue(link.find(), printed);

            var messages = platform.platform().mail().mailbox().list(new Mailbox.Query(email, null, 10));
            assertEquals(1, messages.size());
            assertEquals("sign-in-link", messages.get(0).kind());
            assertEquals("local", messages.get(0).state());

            var confirm = client.get(link.group(1));
            var signedIn = client.post("/console/sign-in/link", ConsoleClient.form("csrf", confirm.hidden("csrf"),
                    "token", confirm.hidden("token")));
            assertEquals(303, signedIn.status(), signedIn.body());
            assertEquals(200, client.get("/console/connections").status());
        } finally {
            System.setOut(original);
        }
    }
}
