package dev.lnp.plugins.trials;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.Message;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A real SMTP server (GreenMail) on a free loopback port, and the trial mails it received. */
final class Mailbox implements AutoCloseable {

    static final Pattern APPROVAL_LINK = Pattern.compile(
            "(http://[^\\s]+/api/agent-trials/approve\\?request=[0-9a-f-]{36}&key=[A-Za-z0-9_-]{43})");

    private final GreenMail greenMail;

    Mailbox() {
        greenMail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        greenMail.start();
    }

    Map<String, String> platformConfig() {
        return Map.of("lnp.mail.host", "127.0.0.1",
                "lnp.mail.port", String.valueOf(greenMail.getSmtp().getPort()),
                "lnp.mail.security", "none",
                "lnp.mail.from", "platform@example.com",
                "lnp.mail.poll_interval_ms", "100");
    }

    List<MimeMessage> messagesTo(String address) {
        return Arrays.stream(greenMail.getReceivedMessages()).filter(m -> {
            try {
                return Arrays.stream(m.getRecipients(Message.RecipientType.TO))
                        .anyMatch(a -> a.toString().equalsIgnoreCase(address));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    /** Waits for the n-th message to the address and returns its text part. */
    String awaitText(String address, int n) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            var messages = messagesTo(address);
            if (messages.size() >= n) {
                return text(messages.get(n - 1));
            }
            greenMail.waitForIncomingEmail(300, greenMail.getReceivedMessages().length + 1);
        }
        throw new AssertionError("no message " + n + " to " + address + " arrived");
    }

    String subject(String address, int n) {
        awaitText(address, n);
        try {
            return messagesTo(address).get(n - 1).getSubject();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static final Pattern SIGN_IN_LINK = Pattern.compile(
            "(http://localhost:\\d+/console/sign-in/link\\?token=[A-Za-z0-9_%-]+)");

    /** The texts of the messages to the address that match the pattern, in order. */
    List<String> matching(String address, Pattern pattern) {
        return messagesTo(address).stream().map(Mailbox::text).filter(t -> pattern.matcher(t).find()).toList();
    }

    /** Waits for the n-th approval-request mail to the address and returns its link. */
    String awaitApprovalLink(String address, int n) {
        return awaitLink(address, APPROVAL_LINK, n);
    }

    String awaitLink(String address, Pattern pattern, int n) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<String> texts = matching(address, pattern);
            if (texts.size() >= n) {
                Matcher m = pattern.matcher(texts.get(n - 1));
                m.find();
                return m.group(1);
            }
            greenMail.waitForIncomingEmail(300, greenMail.getReceivedMessages().length + 1);
        }
        throw new AssertionError("no mail " + n + " matching " + pattern + " to " + address);
    }

    static String text(MimeMessage message) {
        try {
            Object content = message.getContent();
            if (content instanceof String s) {
                return s;
            }
            Multipart multipart = (Multipart) content;
            for (int i = 0; i < multipart.getCount(); i++) {
                if (multipart.getBodyPart(i).isMimeType("text/plain")) {
                    return (String) multipart.getBodyPart(i).getContent();
                }
            }
            throw new AssertionError("no text part");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        greenMail.stop();
    }
}
