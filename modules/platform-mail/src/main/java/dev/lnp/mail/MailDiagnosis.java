package dev.lnp.mail;

import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.api.internal.platform.ConfigValues;
import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.MessagingException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.UUID;
import javax.net.ssl.SSLException;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSenderFailedException;
import org.jdbi.v3.core.Jdbi;

/**
 * The mail path as {@code platform doctor} tries it: with no SMTP server a test message goes to the local mailbox
 * through the outbox every message takes; with one, the doctor connects and signs in with the configured settings,
 * and sends a test message at once when asked to (not through the outbox: the answer is needed now, and the running
 * server's sender would report it only in its log). A failure names what to fix.
 */
public final class MailDiagnosis {

    /** The mail path failed: what happened, and which setting to look at. */
    public static final class Problem extends Exception {
        private final String fix;

        Problem(String message, String fix, Throwable cause) {
            super(message, cause);
            this.fix = fix;
        }

        public String fix() {
            return fix;
        }
    }

    private final MailSettings settings;

    public MailDiagnosis(ConfigValues config) {
        this.settings = MailSettings.from(config);
    }

    public boolean localMailbox() {
        return settings.localMailbox();
    }

    /** The From address, where a test message goes when no recipient is given. */
    public String from() {
        return settings.from().getAddress();
    }

    /** {@code host:port (security)} of the SMTP server. */
    public String server() {
        return settings.host().orElse("") + ":" + settings.port() + " ("
                + settings.security().name().toLowerCase(Locale.ROOT) + ")";
    }

    /** Writes {@code mail} to the local mailbox through the outbox, answering its id. */
    public UUID toLocalMailbox(ConfigValues config, Jdbi jdbi, OutgoingMail mail) {
        return PlatformMailer.queueOnly(config, jdbi).send(mail);
    }

    /** Connects to the SMTP server and signs in. */
    public void connect() throws Problem {
        try {
            new SmtpDelivery(settings).connect();
        } catch (MessagingException | RuntimeException e) {
            throw problem(e);
        }
    }

    /** Sends {@code mail} to the SMTP server now. */
    public void send(OutgoingMail mail) throws Problem {
        MailCheck.check(mail);
        UUID id = UUID.randomUUID();
        String address = settings.from().getAddress();
        var claimed = new MailQueue.Claimed(id, null, mail.kind(), mail.to(), settings.from().toString(),
                mail.subject(), mail.text(), mail.html(),
                "<" + id + ".lnp@" + address.substring(address.lastIndexOf('@') + 1) + ">", 1);
        try {
            new SmtpDelivery(settings).send(claimed);
        } catch (SmtpDelivery.Failure failure) {
            throw problem(failure.getCause() instanceof Exception e ? e : failure);
        }
    }

    private Problem problem(Exception e) {
        String text = settings.host().orElse("") + ":" + settings.port() + " answered: " + SmtpDelivery.describe(e);
        return new Problem(text, fix(e), e);
    }

    /** Which setting the failure points at. */
    static String fix(Throwable e) {
        for (Throwable t = e; t != null; t = next(t)) {
            if (t instanceof AuthenticationFailedException) {
                return "the server refused the sign-in: check lnp.mail.user and lnp.mail.password";
            }
            if (t instanceof SMTPSenderFailedException) {
                return "the server refused the sender: set lnp.mail.from to an address this server may send as";
            }
            if (t instanceof SMTPAddressFailedException) {
                return "the server refused the recipient: check the address given with --mail-to";
            }
            if (t instanceof UnknownHostException) {
                return "lnp.mail.host does not resolve: check the name";
            }
            if (t instanceof ConnectException || t instanceof SocketTimeoutException) {
                return "nothing answers there: check lnp.mail.host and lnp.mail.port, and that a firewall lets "
                        + "this node reach the server";
            }
            if (t instanceof SSLException) {
                return "TLS failed: check lnp.mail.security (starttls on 587, tls on 465) and, for a server with "
                        + "a self-signed certificate, lnp.mail.tls.trust";
            }
            if (String.valueOf(t.getMessage()).contains("STARTTLS")) {
                return "the server does not offer STARTTLS: set lnp.mail.security to tls (port 465), or to none "
                        + "only for a relay on this host or a trusted network";
            }
            if (String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("auth")) {
                return "the server wants a sign-in: set lnp.mail.user and lnp.mail.password";
            }
        }
        return "see the server's answer and the lnp.mail.* settings (docs/operations.md, Mail)";
    }

    private static Throwable next(Throwable t) {
        return t instanceof MessagingException m && m.getNextException() != null ? m.getNextException() : t.getCause();
    }
}
