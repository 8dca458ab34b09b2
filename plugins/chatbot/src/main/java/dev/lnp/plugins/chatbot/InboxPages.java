package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.Filter;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The chat inbox of the workspace application: the conversations handed over to a person (live: the list and an
 * open conversation refresh on every hand-off event), one conversation with its history, and what a member does
 * with it: reply, take over, close. Reading needs {@code chatbot.read}, acting {@code chatbot.write}.
 */
final class InboxPages {

    static final String INBOX = "/app/chat";
    private static final String CONVERSATION = INBOX + "/{id}";
    static final String DUTY = INBOX + "/duty";
    private static final String LIVE = "chatbot.handoff.*";
    private static final int HISTORY = 500;
    private static final Map<String, String> STATES = Map.of("waiting", "Waiting for a person", "taken", "Taken over",
            "closed", "Closed");
    private static final Map<String, String> ROLES = Map.of("visitor", "Visitor", "assistant", "Assistant",
            "human_agent", "Team member", "system", "Notice");

    private final HandoffService service;
    private final HandoffRepository handoffs;
    private final ChatRepository chats;
    private final DutyRoster roster;
    private final JsonNode reply = JsonSchemas.load(InboxPages.class, "reply.json");

    InboxPages(HandoffService service, HandoffRepository handoffs, ChatRepository chats, DutyRoster roster) {
        this.service = service;
        this.roster = roster;
        this.handoffs = handoffs;
        this.chats = chats;
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(INBOX).scope(ChatbotScopes.READ).nav("Support", "Chat inbox").liveOn(LIVE)
                        .renderer(this::inbox),
                // Being on duty is a member's own choice, so it needs what acting on conversations needs.
                PageRoute.action(DUTY).scope(ChatbotScopes.WRITE).button().action((call, values) -> {
                    boolean on = roster.toggle(call.tx(), call.userId(), call.email());
                    return PageOutcome.goTo(INBOX, on ? "You are on duty: each new hand-off is mailed to "
                            + call.email() + "." : "You are off duty: hand-offs are no longer mailed to you.")
                            .recorded(on ? "chatbot.duty_started" : "chatbot.duty_ended", call.userId().toString(), null);
                }),
                PageRoute.view(CONVERSATION).scope(ChatbotScopes.READ).liveOn(LIVE).renderer(this::conversation),
                PageRoute.view(CONVERSATION + "/reply").scope(ChatbotScopes.WRITE).renderer(this::replyForm),
                PageRoute.action(CONVERSATION + "/reply").scope(ChatbotScopes.WRITE).form(reply)
                        .action(this::sendReply),
                PageRoute.action(CONVERSATION + "/take").scope(ChatbotScopes.WRITE).button().action((call, values) -> {
                    UUID id = call.pathId("id");
                    service.take(call.tx(), call.workspaceId(), id, call.userId(), call.email());
                    return PageOutcome.goTo(INBOX + "/" + id, "You have taken this conversation over.")
                            .recorded("chatbot.conversation_taken", id.toString(), null);
                }),
                PageRoute.action(CONVERSATION + "/close").scope(ChatbotScopes.WRITE).button().action((call, values) -> {
                    UUID id = call.pathId("id");
                    service.close(call.tx(), call.workspaceId(), id);
                    return PageOutcome.goTo(INBOX + "/" + id, "Conversation closed. The visitor was told.")
                            .recorded("chatbot.conversation_closed", id.toString(), null);
                }));
    }

    private ListView inbox(PageCall call) {
        // No choice ("Any") is every conversation, the open ones first: what needs a person is on top.
        String state = call.query("state").filter(s -> STATES.containsKey(s) || "open".equals(s)).orElse("");
        List<String> states = switch (state) {
            case "" -> List.of("waiting", "taken", "closed");
            case "open" -> HandoffRepository.OPEN;
            default -> List.of(state);
        };
        var page = call.page();
        var found = handoffs.list(call.tx().handle(), call.workspaceId(), states, page.limit(), (int) page.offset());
        List<ObjectNode> rows = new ArrayList<>();
        for (var h : found.subList(0, Math.min(found.size(), page.limit()))) {
            rows.add(Json.object().put("id", h.id().toString()).put("reason", text(h.reason(), "(no reason given)"))
                    .put("state", stateText(call, h)).put("widget", h.widgetName()).put("handed_off_at", time(h.handedOffAt()))
                    .put("last_visitor_at", time(h.lastVisitorAt())));
        }
        return ListView.of("Chat inbox", List.of(
                        Column.of("Reason", "reason").linkedTo(CONVERSATION),
                        Column.of("Status", "state"),
                        Column.of("Chat", "widget"),
                        Column.of("Handed over", "handed_off_at"),
                        Column.of("Last message from the visitor", "last_visitor_at")),
                        rows, found.size() > page.limit())
                .filters(Filter.choice("state", "Show", List.of(new Filter.Choice("open", "Open (waiting or taken)"),
                        new Filter.Choice("waiting", "Waiting for a person"), new Filter.Choice("taken", "Taken over"),
                        new Filter.Choice("closed", "Closed"))))
                .actions(dutyToggle(call))
                .emptyText(state.isEmpty() || "open".equals(state) ? "Nobody is waiting for a person."
                        : "No conversation here.");
    }

    /** Going on or off duty, saying which one the member is now; empty for those who may only read. */
    private Link[] dutyToggle(PageCall call) {
        if (!call.may(ChatbotScopes.WRITE)) {
            return new Link[0];
        }
        return roster.onDuty(call.tx(), call.userId())
                ? new Link[] {Link.post("Go off duty (you are mailed on each hand-off)", DUTY, null)}
                : new Link[] {Link.post("Go on duty (get a mail on each hand-off)", DUTY, null)};
    }

    private DetailView conversation(PageCall call) {
        UUID id = call.pathId("id");
        var h = service.findShown(call.tx(), call.workspaceId(), id);
        List<ObjectNode> rows = new ArrayList<>();
        for (var m : chats.history(call.tx().handle(), call.workspaceId(), id, HISTORY)) {
            rows.add(Json.object().put("from", ROLES.getOrDefault((String) m.get("role"), (String) m.get("role")))
                    .put("text", (String) m.get("text")).put("at", time((Instant) m.get("created_at"))));
        }
        List<Field> fields = new ArrayList<>(List.of(
                new Field("Status", stateText(call, h)),
                new Field("Reason", h.reason()),
                new Field("Chat", h.widgetName()),
                new Field("Page", h.pageUrl()),
                new Field("Known visitor", h.verifiedEmail() == null ? "no (anonymous)"
                        : (h.verifiedName() == null ? "" : h.verifiedName() + " ") + "<" + h.verifiedEmail()
                        + ">, confirmed by the site"),
                new Field("Visitor's e-mail", text(h.visitorEmail(), "none left (asked during office hours, or not given)")),
                new Field("Started", time(h.startedAt())),
                new Field("Handed over", time(h.handedOffAt())),
                new Field("Ticket", h.ticketId() == null ? "none (the issues module could not open one)"
                        : h.ticketId().toString())));
        List<Link> actions = new ArrayList<>();
        if (h.open() && call.may(ChatbotScopes.WRITE)) {
            if (!call.userId().equals(h.takenBy())) {
                actions.add(Link.post("Take over", INBOX + "/" + id + "/take", null));
            }
            actions.add(Link.post("Close", INBOX + "/" + id + "/close",
                    "The visitor is told, and the assistant answers their next message."));
        }
        actions.add(Link.to("Back to the inbox", INBOX));
        DetailView view = new DetailView("Chat: " + abbreviate(text(h.reason(), h.verifiedName() != null ? h.verifiedName()
                : text(h.verifiedEmail(), "a visitor")), 80), fields,
                List.of(ListView.of("Conversation", List.of(Column.of("From", "from"), Column.of("Message", "text"),
                        Column.of("At", "at")), rows, false).emptyText("No message yet.")),
                actions);
        // The reply is written under the conversation; its own page (/reply) stays for links made before.
        return h.open() && call.may(ChatbotScopes.WRITE)
                ? view.withForm(INBOX + "/" + id + "/reply", new FormView("Reply to the visitor", reply,
                        Json.object(), "Send reply", null))
                : view;
    }

    /** The reply form; the visitor's last words are its help, so the person answers what was asked. */
    private FormView replyForm(PageCall call) {
        UUID id = call.pathId("id");
        var h = service.find(call.tx(), call.workspaceId(), id);
        if (!h.open()) {
            throw new ApiProblem(409, "conversation_closed", "Conflict", "This conversation is closed.");
        }
        String last = chats.history(call.tx().handle(), call.workspaceId(), id, HISTORY).stream()
                .filter(m -> "visitor".equals(m.get("role"))).map(m -> (String) m.get("text"))
                .reduce((a, b) -> b).orElse(h.reason());
        ObjectNode schema = reply.deepCopy();
        ((ObjectNode) schema.path("properties").path("text")).put("description",
                "The visitor wrote last: \u201c" + abbreviate(text(last, ""), 300) + "\u201d. They see your reply at once.");
        return new FormView("Reply to the visitor", schema, Json.object(), "Send reply", INBOX + "/" + id);
    }

    private PageOutcome sendReply(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        String text = values.path("text").asText("").strip();
        if (text.isEmpty()) {
            throw ApiProblem.invalidField("/text", "minLength", "Write a reply first.");
        }
        service.reply(call.tx(), call.workspaceId(), id, call.userId(), call.email(), text);
        return PageOutcome.goTo(INBOX + "/" + id, "Reply sent to the visitor.")
                .recorded("chatbot.conversation_replied", id.toString(), null);
    }

    /** The state in words; a conversation taken over says by whom ("you", or the member's name). */
    private static String stateText(PageCall call, HandoffRepository.Handoff h) {
        if (h.state() == null) {
            return "With the assistant (not handed over to a person)";
        }
        String text = STATES.getOrDefault(h.state(), h.state());
        if (!"taken".equals(h.state()) || h.takenBy() == null && h.takenByEmail() == null) {
            return text;
        }
        String who = h.takenBy() == null ? h.takenByEmail() : call.members().find(h.takenBy())
                .map(m -> h.takenBy().equals(call.userId()) ? "you" : m.name())
                .orElse(h.takenByEmail() != null ? h.takenByEmail() : "a former member");
        return text + " by " + who;
    }

    private static String time(Instant at) {
        return at == null ? null : at.toString();
    }

    private static String text(String value, String otherwise) {
        return value == null || value.isBlank() ? otherwise : value;
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
