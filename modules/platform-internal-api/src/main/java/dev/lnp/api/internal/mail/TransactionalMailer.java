package dev.lnp.api.internal.mail;

import dev.lnp.api.mail.Mailer;
import dev.lnp.api.mail.OutgoingMail;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** The platform's {@link Mailer}, which first-party code with a Jdbi handle of its own may also write through. */
public interface TransactionalMailer extends Mailer {

    /** Writes the message through {@code handle}: it is sent (or shown in the local mailbox) once that commits. */
    UUID send(Handle handle, OutgoingMail mail);
}
