package dev.lnp.api.mail;

import java.util.UUID;

/**
 * One message. text is required; html optional (multipart/alternative when present). workspaceId may be null
 * for deployment mail. kind is a short machine name such as "sign-in-link" used in logs and the mailbox list.
 *
 * @param to one plain address such as {@code ada@example.com} (no display name, no list)
 */
public record OutgoingMail(UUID workspaceId, String to, String subject, String text, String html, String kind) {}
