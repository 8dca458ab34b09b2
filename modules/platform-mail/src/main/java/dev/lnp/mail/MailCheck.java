package dev.lnp.mail;

import dev.lnp.api.mail.OutgoingMail;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Refuses a message before it is queued, naming the field: a caller's mistake is found in the caller's stack,
 * not as a failed delivery minutes later. CR or LF in a header value would let the value add headers of its own
 * (header injection: a Bcc, a second body), so they are refused, not stripped.
 */
final class MailCheck {

    static final int MAX_SUBJECT = 998;
    static final int MAX_BODY_BYTES = 1_048_576;
    private static final Pattern KIND = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    /** Printable ASCII only: an address with other characters needs SMTPUTF8, which servers may not offer. */
    private static final Pattern PLAIN_ADDRESS = Pattern.compile("[\\x21-\\x7e]{3,320}");

    private MailCheck() {
    }

    static void check(OutgoingMail mail) {
        if (mail == null) {
            throw new IllegalArgumentException("mail is required");
        }
        address(mail.to());
        if (mail.subject() == null || mail.subject().isBlank()) {
            throw new IllegalArgumentException("subject is required");
        }
        noLineBreaks("subject", mail.subject());
        if (mail.subject().length() > MAX_SUBJECT) {
            throw new IllegalArgumentException("subject is longer than " + MAX_SUBJECT + " characters");
        }
        if (mail.text() == null || mail.text().isBlank()) {
            throw new IllegalArgumentException("text is required (html is optional, text is not)");
        }
        long bytes = mail.text().getBytes(StandardCharsets.UTF_8).length
                + (mail.html() == null ? 0 : mail.html().getBytes(StandardCharsets.UTF_8).length);
        if (bytes > MAX_BODY_BYTES) {
            throw new IllegalArgumentException("text and html together are " + bytes + " bytes; at most "
                    + MAX_BODY_BYTES + " are sent");
        }
        if (mail.kind() == null || !KIND.matcher(mail.kind()).matches()) {
            throw new IllegalArgumentException("kind must be a short machine name such as 'sign-in-link' "
                    + "(lower-case letters, digits, '.', '_', '-'; at most 64), not '" + mail.kind() + "'");
        }
    }

    /** One plain mailbox ({@code ada@example.com}): no display name, group or list. */
    static String address(String to) {
        if (to == null || to.isBlank()) {
            throw new IllegalArgumentException("to is required");
        }
        noLineBreaks("to", to);
        if (!PLAIN_ADDRESS.matcher(to).matches()) {
            throw new IllegalArgumentException("to must be one plain ASCII address such as ada@example.com, not '"
                    + to + "'");
        }
        try {
            var address = new InternetAddress(to, true);
            address.validate();
            if (address.isGroup() || address.getPersonal() != null || !to.equals(address.getAddress())
                    || to.indexOf('@') < 1 || to.indexOf('@') != to.lastIndexOf('@')) {
                throw new AddressException("not one plain address");
            }
            return address.getAddress();
        } catch (AddressException e) {
            throw new IllegalArgumentException("to must be one plain address such as ada@example.com, not '" + to
                    + "' (" + e.getMessage() + ")");
        }
    }

    private static void noLineBreaks(String field, String value) {
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException(field + " must not contain a line break (CR or LF): a header "
                    + "value with one could add headers of its own");
        }
    }
}
