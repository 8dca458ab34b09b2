package dev.lnp.api.internal.mail;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The deployment's outgoing mail as operators read it ({@code platform mail list|show}, the console's mailbox
 * page): the local mailbox when no SMTP server is configured, and the state of every message sent over SMTP.
 * Read-only, across workspaces; callers must only offer it to operators of the deployment.
 */
public interface Mailbox {

    /** Newest first; at most this many per page. */
    int MAX_LIMIT = 500;

    /** One line of the list. state is pending, sent, failed or local. */
    record Summary(UUID id, UUID workspaceId, String kind, String to, String subject, String state,
            int attempts, Instant createdAt, Instant completedAt, String lastError) {}

    /** One message in full. text and html are null once SMTP accepted the message (they are not kept). */
    record Message(Summary summary, String from, String messageId, String text, String html) {}

    /**
     * @param to only mail to this address (case-insensitive), or null
     * @param workspaceId only this workspace's mail, or null
     * @param limit 1 to {@link #MAX_LIMIT}
     */
    record Query(String to, UUID workspaceId, int limit) {
        public Query {
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", not " + limit);
            }
        }

        public static Query all() {
            return new Query(null, null, 50);
        }
    }

    List<Summary> list(Query query);

    Optional<Message> show(UUID id);
}
