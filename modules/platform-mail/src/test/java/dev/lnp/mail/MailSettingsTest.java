package dev.lnp.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.internet.InternetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.junit.jupiter.api.Test;

/** The mail settings' defaults and refusals, the retry delays, and which SMTP failures are retried. */
class MailSettingsTest {

    private static MailSettings settings(Map<String, String> values) {
        return MailSettings.from(new MapConfig(values));
    }

    @Test
    void noHostIsTheLocalMailboxAndAHostDefaultsToRequiredStarttlsOn587() {
        assertTrue(settings(Map.of()).localMailbox());
        var smtp = settings(Map.of("lnp.mail.host", "smtp.example.com", "lnp.base.url", "https://lnp.example.com"));
        assertFalse(smtp.localMailbox());
        assertEquals(MailSettings.Security.STARTTLS, smtp.security());
        assertEquals(587, smtp.port());
        assertEquals("no-reply@lnp.example.com", smtp.from().getAddress());
        assertEquals(465, settings(Map.of("lnp.mail.host", "h.example", "lnp.mail.security", "TLS")).port());
        assertEquals(25, settings(Map.of("lnp.mail.host", "h.example", "lnp.mail.security", "none")).port());
        assertFalse(settings(Map.of("lnp.mail.host", "h", "lnp.mail.password", "p4ss")).toString().contains("p4ss"));
    }

    @Test
    void invalidValuesNameTheirKey() {
        String[][] cases = {
                {"lnp.mail.security", "ssl", "lnp.mail.security must be none, starttls or tls"},
                {"lnp.mail.port", "70000", "lnp.mail.port must be between 1 and 65535"},
                {"lnp.mail.from", "a@b.example, c@d.example", "lnp.mail.from must be one address"},
                {"lnp.mail.retry.max_attempts", "0", "lnp.mail.retry.max_attempts must be at least 1"},
                {"lnp.mail.connect_timeout_ms", "soon", "lnp.mail.connect_timeout_ms must be a whole number"},
        };
        for (String[] c : cases) {
            var values = new HashMap<String, String>();
            values.put("lnp.mail.host", "smtp.example.com");
            values.put(c[0], c[1]);
            var e = assertThrows(IllegalArgumentException.class, () -> settings(values));
            assertTrue(e.getMessage().startsWith(c[2]), e.getMessage());
        }
    }

    @Test
    void retryDelaysDoubleFromTheFirstUpToTheMaximum() {
        var settings = settings(Map.of("lnp.mail.host", "smtp.example.com", "lnp.mail.retry.first_delay_ms", "60000",
                "lnp.mail.retry.max_delay_ms", "3600000"));
        var sender = new MailSender(null, settings, Clock.systemUTC(), "test");
        assertEquals(Duration.ofMinutes(1), sender.retryDelay(1));
        assertEquals(Duration.ofMinutes(2), sender.retryDelay(2));
        assertEquals(Duration.ofMinutes(32), sender.retryDelay(6));
        assertEquals(Duration.ofHours(1), sender.retryDelay(7));
        assertEquals(Duration.ofHours(1), sender.retryDelay(40));
    }

    @Test
    void fiveHundredRepliesArePermanentEverythingElseIsRetried() throws Exception {
        var to = new InternetAddress("ada@example.com");
        var rejected = new SendFailedException("Invalid Addresses", new SMTPAddressFailedException(to, "RCPT",
                550, "5.1.1 No such user"), new jakarta.mail.Address[0], new jakarta.mail.Address[0],
                new jakarta.mail.Address[] {to});
        assertFalse(SmtpDelivery.isTransient(rejected));
        var greylisted = new SendFailedException("Invalid Addresses", new SMTPAddressFailedException(to, "RCPT",
                451, "4.7.1 Try later"), new jakarta.mail.Address[0], new jakarta.mail.Address[0],
                new jakarta.mail.Address[] {to});
        assertTrue(SmtpDelivery.isTransient(greylisted));
        assertFalse(SmtpDelivery.isTransient(new SMTPSendFailedException("DATA", 554, "5.6.0 Rejected", null,
                null, null, null)));
        assertTrue(SmtpDelivery.isTransient(new SMTPSendFailedException("DATA", 421, "4.3.0 Busy", null, null,
                null, null)));
        assertTrue(SmtpDelivery.isTransient(new jakarta.mail.AuthenticationFailedException("535 bad credentials")));
        assertTrue(SmtpDelivery.isTransient(new MessagingException("connection lost",
                new java.net.SocketTimeoutException("read timed out"))));
    }
}
