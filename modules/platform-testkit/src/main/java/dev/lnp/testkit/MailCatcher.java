package dev.lnp.testkit;

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

/**
 * A real SMTP server (GreenMail) on a free loopback port for a test platform's mail, and what it received: start one,
 * boot the platform with {@link #platformConfig()}, then wait for a message and the link in it. GreenMail is an
 * optional dependency of the testkit: a test that uses this class declares {@code greenmail-junit5} (test scope).
 */
public class MailCatcher implements AutoCloseable {

    /** A one-time console link (sign-in, invitation) as the platform's mails carry it. */
    public static final Pattern CONSOLE_LINK =
            Pattern.compile("(http://localhost:\\d+/console/[a-z/-]+\\?token=[A-Za-z0-9_%-]+)");

    private static final long WAIT_NANOS = 20_000_000_000L;

    private final GreenMail greenMail;

    public MailCatcher() {
        greenMail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        greenMail.start();
    }

    /** The platform settings that send its mail here (polled every 100 ms, so tests do not wait long). */
    public Map<String, String> platformConfig() {
        return Map.of("lnp.mail.host", "127.0.0.1",
                "lnp.mail.port", String.valueOf(greenMail.getSmtp().getPort()),
                "lnp.mail.security", "none",
                "lnp.mail.from", "platform@example.com",
                "lnp.mail.poll_interval_ms", "100");
    }

    /** The messages received so far for {@code address} (case-insensitive), oldest first. */
    public List<MimeMessage> messagesTo(String address) {
        return Arrays.stream(greenMail.getReceivedMessages()).filter(m -> {
            try {
                return Arrays.stream(m.getRecipients(Message.RecipientType.TO))
                        .anyMatch(a -> a.toString().equalsIgnoreCase(address));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    /** Waits (up to 20 s) for the {@code n}-th message to {@code address} and returns its text part. */
    public String awaitText(String address, int n) {
        return text(awaitMessage(address, n));
    }

    /** Waits for the {@code n}-th message to {@code address} and returns its subject. */
    public String subject(String address, int n) {
        try {
            return awaitMessage(address, n).getSubject();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits for the {@code n}-th message to {@code address} and returns the console link in its text. */
    public String awaitLink(String address, int n) {
        String text = awaitText(address, n);
        Matcher m = CONSOLE_LINK.matcher(text);
        if (!m.find()) {
            throw new AssertionError("no console link in\n" + text);
        }
        return m.group(1);
    }

    /** The texts of the messages to {@code address} in which {@code pattern} is found, oldest first. */
    public List<String> matching(String address, Pattern pattern) {
        return messagesTo(address).stream().map(MailCatcher::text).filter(t -> pattern.matcher(t).find()).toList();
    }

    /** Waits for the {@code n}-th message to {@code address} matching {@code pattern}; answers its group 1. */
    public String awaitLink(String address, Pattern pattern, int n) {
        long deadline = System.nanoTime() + WAIT_NANOS;
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

    private MimeMessage awaitMessage(String address, int n) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (System.nanoTime() < deadline) {
            var messages = messagesTo(address);
            if (messages.size() >= n) {
                return messages.get(n - 1);
            }
            greenMail.waitForIncomingEmail(300, greenMail.getReceivedMessages().length + 1);
        }
        throw new AssertionError("no message " + n + " to " + address + " arrived");
    }

    /** The text/plain part of a message (the whole body of a plain one). */
    public static String text(MimeMessage message) {
        try {
            Object content = message.getContent();
            if (content instanceof String s) {
                return s;
            }
            String text = part((Multipart) content, "text/plain");
            if (text == null) {
                throw new AssertionError("no text part");
            }
            return text;
        } catch (jakarta.mail.MessagingException | java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The text/html part of a multipart message, or null. */
    public static String html(MimeMessage message) {
        try {
            return part((Multipart) message.getContent(), "text/html");
        } catch (jakarta.mail.MessagingException | java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String part(Multipart multipart, String type) throws jakarta.mail.MessagingException,
            java.io.IOException {
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
