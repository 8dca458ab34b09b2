package dev.lnp.plugins.chatbot;

import dev.lnp.api.PluginContext;
import dev.lnp.api.internal.events.DeliveredEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Answers a person gave become knowledge drafts: when a ticket opened by a chat hand-off is solved or closed (the
 * issues plugin's {@code issues.ticket.updated} event, delivered in process like its comments to
 * {@link TicketReplies}) and a member replied to the visitor, a {@code ticket_answer} source is drafted with the
 * visitor's question as its title and the member's last reply as its text. It stays {@code draft}, never indexed
 * and never answered from, until an admin approves it; one draft per ticket, however often the event comes.
 */
final class TicketAnswers {

    /** The issues plugin's event: a ticket changed (its whole state in the payload). */
    static final String TICKET_UPDATED = "issues.ticket.updated";
    private static final Set<String> RESOLVED = Set.of("solved", "closed");

    private final Supplier<PluginContext> context;
    private final KnowledgeRepository knowledge;

    TicketAnswers(Supplier<PluginContext> context, KnowledgeRepository knowledge) {
        this.context = context;
        this.knowledge = knowledge;
    }

    void onTicketUpdated(DeliveredEvent event) {
        var payload = event.payload();
        if (!"ticket".equals(payload.path("kind").asText("ticket")) || !payload.hasNonNull("id")
                || !RESOLVED.contains(payload.path("status").asText())) {
            return;
        }
        UUID ticketId = UUID.fromString(payload.get("id").asText());
        UUID ws = event.workspaceId();
        context.get().inWorkspace(ws, tx -> {
            var turns = tx.handle().createQuery("""
                            SELECT m.role, m.text, s.language FROM chatbot.messages m
                              JOIN chatbot.sessions s ON s.id = m.session_id AND s.workspace_id = m.workspace_id
                             WHERE s.workspace_id = :ws AND s.ticket_id = :ticket
                               AND m.role IN ('visitor', 'human_agent')
                             ORDER BY m.seq""")
                    .bind("ws", ws).bind("ticket", ticketId)
                    .map((rs, ctx) -> List.of(rs.getString(1), rs.getString(2),
                            rs.getString(3) == null ? "en" : rs.getString(3)))
                    .list();
            draftOf(turns).ifPresent(d -> knowledge.insertDraft(tx.handle(), ws, ticketId, title(d.getKey()),
                    d.getKey(), d.getValue(), turns.get(0).get(2).matches("[a-z]{2,3}") ? turns.get(0).get(2) : "en"));
            return null;
        });
    }

    /**
     * The question and the answer of a conversation ({@code [role, text]} oldest first): the member's last reply,
     * and the visitor's last message before the first reply that was not a request for a person (else their first).
     */
    static java.util.Optional<Map.Entry<String, String>> draftOf(List<List<String>> turns) {
        String answer = null;
        String question = null;
        String first = null;
        boolean replied = false;
        for (List<String> t : turns) {
            if (t.get(0).equals("human_agent")) {
                replied = true;
                answer = t.get(1);
            } else if (!replied) {
                first = first == null ? t.get(1) : first;
                if (!HandoffIntent.asksForPerson(t.get(1))) {
                    question = t.get(1);
                }
            }
        }
        question = question == null ? first : question;
        if (answer == null || answer.isBlank() || question == null || question.isBlank()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(Map.entry(question.strip(), answer.strip()));
    }

    private static String title(String question) {
        String line = question.strip().replaceAll("\\s+", " ");
        return line.length() > 300 ? line.substring(0, 299) + "…" : line;
    }
}
