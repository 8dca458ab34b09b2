package dev.lnp.api.internal.mail;

/** Outgoing mail on this node, as the mail module offers it: the mailer that queues, and the mailbox operators read. */
public interface MailService {

    TransactionalMailer mailer();

    Mailbox mailbox();
}
