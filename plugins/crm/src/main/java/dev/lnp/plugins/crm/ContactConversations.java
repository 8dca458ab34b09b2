package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.crm.ContactDirectory;
import dev.lnp.api.workspace.WorkspaceTx;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * The CRM's side of {@link ContactDirectory}: other plugins find or create a contact by e-mail address and link
 * their conversations with it ({@code crm.contact_conversations}), which the contact's page and
 * {@code GET /api/v1/crm/contacts/{id}/conversations} list. Nothing happens in a workspace that switched the CRM off.
 */
final class ContactConversations implements ContactDirectory {

    static final String PLUGIN_ID = "crm";
    private static final int NAME_MAX = 120;

    private final ContactService contacts;

    ContactConversations(ContactService contacts) {
        this.contacts = contacts;
    }

    @Override
    public Optional<UUID> findOrCreate(WorkspaceTx tx, String email, String name) {
        if (switchedOff(tx.handle())) {
            return Optional.empty();
        }
        Optional<UUID> existing = byEmail(tx, email);
        if (existing.isPresent()) {
            return existing;
        }
        ObjectNode fields = Json.object().put("email", email);
        String[] names = split(name);
        if (names[0] != null) fields.put("first_name", names[0]);
        if (names[1] != null) fields.put("last_name", names[1]);
        // Made by nobody of the workspace: the site vouched for the visitor, so the timeline names no one.
        ObjectNode created = contacts.create(tx, new Actor("connection", null, null), fields);
        return Optional.of(UUID.fromString(created.get("id").asText()));
    }

    @Override
    public void linkConversation(WorkspaceTx tx, UUID contactId, LinkedConversation c) {
        if (switchedOff(tx.handle())) {
            return;
        }
        tx.handle().createUpdate("""
                        INSERT INTO crm.contact_conversations (workspace_id, conversation_id, contact_id, channel, title,
                                                               path, started_at)
                        SELECT :ws, :id, c.id, :channel, :title, :path, :started
                          FROM crm.contacts c WHERE c.workspace_id = :ws AND c.id = :contact
                        ON CONFLICT (workspace_id, conversation_id) DO NOTHING""")
                .bind("ws", tx.workspaceId()).bind("id", c.id()).bind("contact", contactId)
                .bind("channel", c.channel()).bind("title", c.title()).bind("path", c.path())
                .bind("started", java.sql.Timestamp.from(c.startedAt())).execute();
    }

    /** A contact's linked conversations, newest first (at most {@code limit}). */
    static List<ObjectNode> of(Handle h, UUID workspaceId, UUID contactId, int limit) {
        return h.createQuery("""
                        SELECT conversation_id, channel, title, path, started_at FROM crm.contact_conversations
                         WHERE workspace_id = :ws AND contact_id = :contact
                         ORDER BY started_at DESC, conversation_id LIMIT :limit""")
                .bind("ws", workspaceId).bind("contact", contactId).bind("limit", limit)
                .map((rs, ctx) -> {
                    ObjectNode row = Json.object();
                    row.put("id", rs.getObject("conversation_id", UUID.class).toString());
                    row.put("channel", rs.getString("channel"));
                    row.put("title", rs.getString("title"));
                    row.put("path", rs.getString("path"));
                    row.put("started_at", rs.getTimestamp("started_at").toInstant().toString());
                    return row;
                })
                .list();
    }

    private static Optional<UUID> byEmail(WorkspaceTx tx, String email) {
        return tx.handle().createQuery("SELECT id FROM crm.contacts WHERE workspace_id = :ws AND lower(email) = lower(:email)")
                .bind("ws", tx.workspaceId()).bind("email", email).mapTo(UUID.class).findOne();
    }

    private static boolean switchedOff(Handle h) {
        String[] off = h.createQuery("SELECT lnp_core.current_workspace_disabled_modules()")
                .map((rs, ctx) -> {
                    java.sql.Array a = rs.getArray(1);
                    return a == null ? new String[0] : (String[]) a.getArray();
                })
                .findOne().orElse(new String[0]);
        return List.of(off).contains(PLUGIN_ID);
    }

    /** "Ada King Lovelace" → first "Ada King", last "Lovelace"; one word is a first name. */
    static String[] split(String name) {
        if (name == null || name.isBlank()) {
            return new String[] {null, null};
        }
        String n = name.strip().replaceAll("\\s+", " ");
        int space = n.lastIndexOf(' ');
        if (space < 0) {
            return new String[] {cut(n), null};
        }
        return new String[] {cut(n.substring(0, space)), cut(n.substring(space + 1))};
    }

    private static String cut(String s) {
        return s.length() <= NAME_MAX ? s : s.substring(0, NAME_MAX);
    }
}
