/**
 * Outgoing mail, a subsystem of the kernel: the mailer that writes each message to the outbox table, the mailbox
 * operators read, and the sender that delivers over SMTP with retries. The kernel finds it through
 * {@link dev.lnp.api.internal.subsystem.Subsystem}; nothing in the kernel depends on this module.
 */
module lnp.platform.mail {
    requires lnp.platform.api.internal;
    requires jakarta.mail;
    requires org.eclipse.angus.mail;
    requires dev.failsafe.core;

    provides dev.lnp.api.internal.subsystem.Subsystem with dev.lnp.mail.MailSubsystem;

    // Tests and the operator's tools queue mail without a running node (PlatformMailer.queueOnly, MailDiagnosis).
    exports dev.lnp.mail;
}
