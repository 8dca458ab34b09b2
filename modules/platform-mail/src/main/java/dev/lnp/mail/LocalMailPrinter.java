package dev.lnp.mail;

import dev.lnp.api.mail.OutgoingMail;
import java.util.UUID;

/**
 * Prints a local-mailbox message's text on standard output, in one clearly marked block, so that someone trying
 * the platform on one machine can follow a sign-in link without any mail server.
 */
final class LocalMailPrinter {

    static final String BEGIN = "----- LNP local mailbox: mail ";
    static final String END = "----- end of mail ";

    void print(UUID id, OutgoingMail mail) {
        var block = new StringBuilder()
                .append(BEGIN).append(id).append(" (").append(mail.kind()).append(") -----\n")
                .append("To: ").append(mail.to()).append('\n')
                .append("Subject: ").append(mail.subject()).append('\n')
                .append('\n')
                .append(mail.text().strip()).append('\n')
                .append(END).append(id).append(" (platform mail show ").append(id).append(") -----\n");
        // One write, so that lines of other threads do not interleave with the block.
        System.out.print(block);
        System.out.flush();
    }
}
