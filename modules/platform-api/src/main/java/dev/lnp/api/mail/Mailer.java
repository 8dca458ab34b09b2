package dev.lnp.api.mail;

import java.util.UUID;

/**
 * Outgoing e-mail for the core and every plugin. Obtained with {@code context.service(Mailer.class)} in plugins.
 *
 * <p>Messages go into a durable outbox in the platform's database and a background sender delivers them over
 * SMTP ({@code lnp.mail.*}), retrying transient failures with backoff. With no SMTP server configured they stay
 * in the database as the deployment's local mailbox ({@code platform mail list|show}) and their text is printed
 * on the server's standard output.
 */
public interface Mailer {

    /**
     * Queues the message durably (in the caller's transaction when given one, else its own) and returns its id
     * at once; delivery happens in the background with retries. Never blocks on SMTP.
     *
     * <p>Called inside {@code PluginContext.inWorkspace} or a request's transaction, the message is written in
     * that transaction: it is sent only if the transaction commits.
     *
     * @throws IllegalArgumentException when a field is missing or unsafe: no recipient, an address that is not
     *         a single plain mailbox, or a carriage return or line feed in the subject or an address (header
     *         injection); the message names the field
     */
    UUID send(OutgoingMail mail);

    /** True when no SMTP server is configured and mail goes to the deployment's local mailbox. */
    boolean localMailbox();
}
