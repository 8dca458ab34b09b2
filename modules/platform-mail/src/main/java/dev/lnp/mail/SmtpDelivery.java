package dev.lnp.mail;

import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.util.Date;
import java.util.Properties;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.eclipse.angus.mail.smtp.SMTPSenderFailedException;

/**
 * Sends one message to the configured SMTP server with Jakarta Mail (Eclipse Angus), one connection per message,
 * and says whether a failure is worth retrying: the server's 4xx replies and connection trouble are, its 5xx
 * replies about the message or recipient are not. An authentication failure is a deployment fault that an
 * operator fixes, so the message waits for it (retried) rather than being lost.
 */
final class SmtpDelivery {

    /** A failure, and whether sending again later may succeed. */
    static final class Failure extends Exception {
        final boolean transientFailure;

        Failure(String message, boolean transientFailure, Throwable cause) {
            super(message, cause);
            this.transientFailure = transientFailure;
        }
    }

    private final MailSettings settings;
    private final Session session;

    SmtpDelivery(MailSettings settings) {
        this.settings = settings;
        this.session = Session.getInstance(properties(settings));
    }

    private static Properties properties(MailSettings settings) {
        var p = new Properties();
        p.put("mail.transport.protocol", "smtp");
        p.put("mail.smtp.host", settings.host().orElseThrow());
        p.put("mail.smtp.port", Integer.toString(settings.port()));
        p.put("mail.smtp.connectiontimeout", Long.toString(settings.connectTimeout().toMillis()));
        p.put("mail.smtp.timeout", Long.toString(settings.readTimeout().toMillis()));
        p.put("mail.smtp.writetimeout", Long.toString(settings.writeTimeout().toMillis()));
        p.put("mail.smtp.from", settings.from().getAddress());
        p.put("mail.smtp.auth", Boolean.toString(settings.user().isPresent()));
        switch (settings.security()) {
            case STARTTLS -> {
                p.put("mail.smtp.starttls.enable", "true");
                // Never fall back to a clear-text session when the server does not offer STARTTLS.
                p.put("mail.smtp.starttls.required", "true");
            }
            case TLS -> p.put("mail.smtp.ssl.enable", "true");
            case NONE -> { }
        }
        // A host listed in lnp.mail.tls.trust is trusted without checking its certificate, its name included
        // (a relay with a self-signed certificate); every other server must prove it is the host configured.
        p.put("mail.smtp.ssl.checkserveridentity", Boolean.toString(settings.trust().isEmpty()));
        settings.trust().ifPresent(hosts -> p.put("mail.smtp.ssl.trust", hosts));
        return p;
    }

    /** Connects to the server and signs in (when a user is configured), then hangs up; sends nothing. */
    void connect() throws MessagingException {
        try (Transport transport = session.getTransport()) {
            transport.connect(settings.host().orElseThrow(), settings.port(), settings.user().orElse(null),
                    settings.password().orElse(null));
        }
    }

    /** Sends the message, or throws a {@link Failure} saying whether to retry. */
    void send(MailQueue.Claimed mail) throws Failure {
        MimeMessage message;
        try {
            message = message(mail);
        } catch (MessagingException e) {
            throw new Failure("The message cannot be built: " + describe(e), false, e);
        }
        try (Transport transport = session.getTransport()) {
            transport.connect(settings.host().orElseThrow(), settings.port(), settings.user().orElse(null),
                    settings.password().orElse(null));
            transport.sendMessage(message, message.getAllRecipients());
        } catch (MessagingException e) {
            throw new Failure(describe(e), isTransient(e), e);
        }
    }

    private MimeMessage message(MailQueue.Claimed mail) throws MessagingException {
        String messageId = mail.messageId();
        var message = new MimeMessage(session) {
            @Override
            protected void updateMessageID() throws MessagingException {
                setHeader("Message-ID", messageId);
            }
        };
        try {
            message.setFrom(new InternetAddress(mail.from(), true));
        } catch (AddressException e) {
            message.setFrom(settings.from());
        }
        message.setRecipient(Message.RecipientType.TO, new InternetAddress(mail.to(), true));
        message.setSubject(mail.subject(), "UTF-8");
        message.setSentDate(new Date());
        // RFC 3834: an automatic message; auto-responders should not answer it.
        message.setHeader("Auto-Submitted", "auto-generated");
        if (mail.html() == null) {
            message.setText(mail.text(), "UTF-8");
        } else {
            var text = new MimeBodyPart();
            text.setText(mail.text(), "UTF-8");
            var html = new MimeBodyPart();
            html.setText(mail.html(), "UTF-8", "html");
            message.setContent(new MimeMultipart("alternative", text, html));
        }
        message.saveChanges();
        return message;
    }

    static boolean isTransient(MessagingException e) {
        int code = replyCode(e);
        if (code >= 500) {
            return false;
        }
        if (code >= 400) {
            return true;
        }
        if (e instanceof AuthenticationFailedException) {
            return true;
        }
        if (e instanceof SendFailedException failed && failed.getInvalidAddresses() != null
                && failed.getInvalidAddresses().length > 0 && failed.getValidSentAddresses() == null) {
            return false;
        }
        return true; // connection refused, timeouts, TLS trouble, dropped connections
    }

    /** The server's reply code carried by the exception or one it wraps, or 0. */
    private static int replyCode(MessagingException e) {
        for (Exception next = e; next != null;
                next = next instanceof MessagingException m ? m.getNextException() : null) {
            if (next instanceof SMTPAddressFailedException f) {
                return f.getReturnCode();
            }
            if (next instanceof SMTPSenderFailedException f) {
                return f.getReturnCode();
            }
            if (next instanceof SMTPSendFailedException f) {
                return f.getReturnCode();
            }
        }
        return 0;
    }

    /** The exception and the ones it wraps, on one line, for the message's last_error. */
    static String describe(Exception e) {
        var text = new StringBuilder();
        Throwable next = e;
        for (int depth = 0; next != null && depth < 4; depth++) {
            if (!text.isEmpty()) {
                text.append(" <- ");
            }
            text.append(next.getClass().getSimpleName()).append(": ").append(String.valueOf(next.getMessage()).strip());
            next = next instanceof MessagingException m && m.getNextException() != null ? m.getNextException()
                    : next.getCause();
        }
        return text.toString().replaceAll("\\s+", " ");
    }
}
