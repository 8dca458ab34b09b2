package dev.lnp.plugins.trials;

import dev.lnp.testkit.MailCatcher;
import java.util.regex.Pattern;

/** The testkit's SMTP catcher, and the links of the trial mails it received. */
final class Mailbox extends MailCatcher {

    static final Pattern APPROVAL_LINK = Pattern.compile(
            "(http://[^\\s]+/api/agent-trials/approve\\?request=[0-9a-f-]{36}&key=[A-Za-z0-9_-]{43})");

    static final Pattern SIGN_IN_LINK = Pattern.compile(
            "(http://localhost:\\d+/console/sign-in/link\\?token=[A-Za-z0-9_%-]+)");

    /** Waits for the n-th approval-request mail to the address and returns its link. */
    String awaitApprovalLink(String address, int n) {
        return awaitLink(address, APPROVAL_LINK, n);
    }
}
