package dev.lnp.api.crm;

import dev.lnp.api.workspace.WorkspaceTx;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * What other plugins may ask of CRM contacts (e.g. the chatbot linking a verified visitor's conversation to the
 * contact with that e-mail address), offered by the CRM plugin through {@code Registrar.provide} and found through
 * {@code PluginContext.service(ContactDirectory.class)}; absent when the CRM plugin is not deployed. Every call runs
 * in the caller's transaction, under its workspace's row-level security, and does nothing (answers empty) when the
 * workspace has switched the CRM off.
 */
public interface ContactDirectory {

    /**
     * The id of the workspace's contact with this e-mail address (compared without regard to case), created with
     * this name when there is none; empty when the workspace has switched the CRM off.
     *
     * @param name the person's name as they gave it ("Ada Lovelace"), or null
     */
    Optional<UUID> findOrCreate(WorkspaceTx tx, String email, String name);

    /**
     * Records that a conversation held in another plugin is with this contact, so the contact's page lists it.
     * Recording the same conversation again changes nothing. Does nothing when the workspace has switched the CRM off
     * or the contact no longer exists.
     */
    void linkConversation(WorkspaceTx tx, UUID contactId, LinkedConversation conversation);

    /**
     * A conversation another plugin holds with a contact.
     *
     * @param id the conversation's id in its plugin (unique across plugins: a random UUID)
     * @param channel what kind of conversation, in words ("Chat")
     * @param title what the contact's page shows, e.g. the widget's name
     * @param path the application page of the conversation ({@code /app/…})
     * @param startedAt when it started
     */
    record LinkedConversation(UUID id, String channel, String title, String path, Instant startedAt) {
    }
}
