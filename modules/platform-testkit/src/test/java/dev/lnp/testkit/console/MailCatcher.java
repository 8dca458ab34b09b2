package dev.lnp.testkit.console;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.BodyPart;
import jakarta.mail.Message;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A real SMTP server (GreenMail) on a free loopback port, and the links in what it received. */
final class MailCatcher implements AutoCloseable {

    private static final Pattern LINK = Pattern.compile("(http://localhost:\\d+/console/[a-z/-]+\\?token=[A-Za-z0-9_%-]+)");

    private final GreenMail greenMail;

    MailCatcher() {
        greenMail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        greenMail.start();
    }

    /** The platform settings that send its mail here. */
    Map<String, String> platformConfig() {
        return Map.of("lnp.mail.host", "127.0.0.1",
                "lnp.mail.port", String.valueOf(greenMail.getSmtp().getPort()),
                "lnp.mail.security", "none",
                "lnp.mail.from", "platform@example.com",
                "lnp.mail.poll_interval_ms", "200");
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

    /** Waits for the {@code n}-th message to {@code address} and returns the link in its text part. */
    String awaitLink(String address, int n) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            var messages = messagesTo(address);
            if (messages.size() >= n) {
                String text = text(messages.get(n - 1));
                Matcher m = LINK.matcher(text);
                if (!m.find()) {
                    throw new AssertionError("no console link in\n" + text);
                }
                return m.group(1);
            }
            greenMail.waitForIncomingEmail(500, greenMail.getReceivedMessages().length + 1);
        }
        throw new AssertionError("no message " + n + " to " + address + " arrived");
    }

    static String text(MimeMessage message) {
        try {
            Object content = message.getContent();
            if (content instanceof String s) {
                return s;
            }
            return part((Multipart) content, "text/plain");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String html(MimeMessage message) {
        try {
            return part((Multipart) message.getContent(), "text/html");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String part(Multipart multipart, String type) throws Exception {
        for (int i = 0; i < multipart.getCount(); i++) {
            BodyPart part = multipart.getBodyPart(i);
            if (part.isMimeType(type)) {
                return (String) part.getContent();
            }
            if (part.getContent() instanceof Multipart nested) {
                String found = part(nested, type);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    @Override
    public void close() {
        greenMail.stop();
    }
}
