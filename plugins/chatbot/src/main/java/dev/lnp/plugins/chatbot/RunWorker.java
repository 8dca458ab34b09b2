package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.PluginContext;
import dev.lnp.plugins.chatbot.api.Conversation;
import dev.lnp.plugins.chatbot.api.Reply;
import dev.lnp.plugins.chatbot.api.Responder;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Executes runs on virtual threads. A run is claimed with a lease that this node renews while the responder works;
 * if the node dies, the lease runs out and any node's sweeper takes the run over and answers it from the start.
 * Results are written only while this node still holds the run, so a run is answered once.
 */
final class RunWorker implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RunWorker.class.getName());
    private static final int HISTORY = 40;

    private final PluginContext context;
    private final ChatSettings settings;
    private final ChatRepository chats;
    private final WidgetRepository widgets;
    private final ResponderRegistry responders;
    private final HandoffService handoffService;
    private final HandoffRepository handoffs;
    private final DutyRoster roster;
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    RunWorker(PluginContext context, ChatSettings settings, ChatRepository chats, WidgetRepository widgets,
            ResponderRegistry responders, HandoffService handoffService, HandoffRepository handoffs,
            DutyRoster roster) {
        this.roster = roster;
        this.handoffService = handoffService;
        this.handoffs = handoffs;
        this.context = context;
        this.settings = settings;
        this.chats = chats;
        this.widgets = widgets;
        this.responders = responders;
    }

    /** Runs a run just created on this node. */
    void submit(UUID workspaceId, UUID runId) {
        if (closed) {
            return;
        }
        Thread.ofVirtual().name("chatbot-run-" + runId).start(() -> execute(workspaceId, runId));
    }

    /**
     * One sweep, run by the platform as the plugin's {@code run-sweeper} worker every {@code lnp.chatbot.sweep_interval}:
     * takes over runs that are pending or whose node stopped renewing their lease, and purges old rate counters.
     */
    void sweep() {
        if (closed) {
            return;
        }
        List<Map.Entry<UUID, UUID>> abandoned = context.acrossWorkspaces(
                h -> chats.abandonedRuns(h, settings.lease(), 20));
        for (var run : abandoned) {
            LOG.log(Level.INFO, "chatbot: taking over run " + run.getValue() + " (pending or its node stopped)");
            submit(run.getKey(), run.getValue());
        }
        context.acrossWorkspaces(h -> {
            chats.purgeCounters(h, java.time.Instant.now().minusSeconds(600));
            return null;
        });
    }

    private void execute(UUID ws, UUID runId) {
        running.add(Thread.currentThread());
        try {
            var claimed = context.inWorkspace(ws, tx -> chats.claim(tx.handle(), ws, runId, settings.nodeId(),
                    settings.lease()));
            if (claimed.isEmpty()) {
                return; // another node has it, or it is done
            }
            ChatRepository.Run run = claimed.get();
            Thread renewer = Thread.ofVirtual().start(() -> renew(ws, runId));
            try {
                answer(ws, run);
            } finally {
                renewer.interrupt();
            }
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.log(Level.WARNING, "chatbot: run " + runId + " could not be executed: " + e);
            }
        } finally {
            running.remove(Thread.currentThread());
        }
    }

    private void renew(UUID ws, UUID runId) {
        long every = Math.max(200, settings.lease().toMillis() / 3);
        while (!closed) {
            try {
                Thread.sleep(every);
                context.inWorkspace(ws, tx -> chats.renewLease(tx.handle(), ws, runId, settings.nodeId(),
                        settings.lease()));
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "chatbot: renewing the lease of run " + runId + " failed: " + e);
            }
        }
    }

    private record Loaded(Widget widget, ChatRepository.Session session, String message,
            List<Map<String, Object>> history) {
    }

    private void answer(UUID ws, ChatRepository.Run run) {
        Loaded loaded = context.inWorkspace(ws, tx -> {
            var session = chats.session(tx.handle(), ws, run.sessionId()).orElseThrow();
            var widget = widgets.find(tx.handle(), ws, session.widgetId()).orElseThrow();
            String text = chats.messageText(tx.handle(), ws, run.messageId()).orElseThrow();
            var history = chats.history(tx.handle(), ws, run.sessionId(), HISTORY);
            return new Loaded(widget, session, text, history);
        });
        if (loaded.session().handedOff()) {
            forward(ws, run, loaded);
            return;
        }
        UUID messageId = UUID.randomUUID();
        try {
            Reply reply;
            if (run.requestHuman()) {
                reply = Reply.handoff(null);
            } else {
                Responder responder = responders.find(loaded.widget().responder()).orElseThrow(() ->
                        new ResponderFailure("unknown_responder", "The widget's responder "
                                + loaded.widget().responder() + " is not installed."));
                Conversation conversation = new Conversation(ws, loaded.widget().id(), run.sessionId(), run.id(),
                        loaded.session().language(), loaded.message(), turns(loaded.history(), run.messageId()),
                        settingsOf(loaded.widget()));
                var sink = new DeltaSink(ws, run, messageId);
                reply = responder.respond(conversation, sink);
                sink.flush();
            }
            if (closed) {
                return; // stopping: the lease runs out and another node answers
            }
            if (reply.handoff()) {
                handoff(ws, run, loaded, reply.text());
            } else {
                complete(ws, run, messageId, "assistant", reply.text(), citations(reply), reply.unanswered());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (closed) {
                return;
            }
            String code = e instanceof ResponderFailure f ? f.code : "responder_failed";
            String detail = e instanceof ResponderFailure f ? f.getMessage()
                    : "The answer could not be produced; please try again in a moment.";
            LOG.log(Level.WARNING, "chatbot: run " + run.id() + " failed: " + e);
            fail(ws, run, code, detail);
        }
    }

    /** Deltas of a streaming responder, written as stream events (batched: at most one row per 50 ms). */
    private final class DeltaSink implements dev.lnp.plugins.chatbot.api.ReplySink {
        private final UUID ws;
        private final ChatRepository.Run run;
        private final UUID messageId;
        private final StringBuilder pending = new StringBuilder();
        private long lastWrite;

        DeltaSink(UUID ws, ChatRepository.Run run, UUID messageId) {
            this.ws = ws;
            this.run = run;
            this.messageId = messageId;
        }

        @Override
        public void delta(String text) {
            pending.append(text);
            if (System.nanoTime() - lastWrite > 50_000_000L) {
                flush();
            }
        }

        void flush() {
            if (pending.isEmpty() || closed) {
                return;
            }
            String delta = pending.toString();
            pending.setLength(0);
            lastWrite = System.nanoTime();
            context.inWorkspace(ws, tx -> chats.addEvent(tx.handle(), ws, run.sessionId(), ChatbotEvents.MESSAGE_DELTA,
                    Map.of("run_id", run.id(), "message_id", messageId, "delta", delta)));
        }
    }

    private void complete(UUID ws, ChatRepository.Run run, UUID messageId, String role, String text,
            JsonNode citations) {
        complete(ws, run, messageId, role, text, citations, false);
    }

    private void complete(UUID ws, ChatRepository.Run run, UUID messageId, String role, String text,
            JsonNode citations, boolean unanswered) {
        context.inWorkspace(ws, tx -> {
            if (!chats.finish(tx.handle(), ws, run.id(), settings.nodeId(), "completed", null, null)) {
                return null;
            }
            if (unanswered) {
                chats.markUnanswered(tx.handle(), ws, run.id());
            }
            var message = chats.insertMessage(tx.handle(), ws, messageId, run.sessionId(), role, text, run.id(),
                    citations);
            chats.addEvent(tx.handle(), ws, run.sessionId(), ChatbotEvents.MESSAGE_COMPLETED, Map.of("message", message));
            chats.addEvent(tx.handle(), ws, run.sessionId(), ChatbotEvents.RUN_COMPLETED, Map.of("run_id", run.id()));
            return null;
        });
    }

    private void fail(UUID ws, ChatRepository.Run run, String code, String detail) {
        context.inWorkspace(ws, tx -> {
            if (!chats.finish(tx.handle(), ws, run.id(), settings.nodeId(), "failed", code, detail)) {
                return null;
            }
            chats.addEvent(tx.handle(), ws, run.sessionId(), ChatbotEvents.RUN_FAILED,
                    Map.of("run_id", run.id(), "code", code, "detail", detail));
            return null;
        });
    }

    /**
     * Hands the conversation over to a person: from now on every visitor message goes to the team (the chat inbox,
     * and the ticket when one could be opened) until a member closes it. The ticket, opened through the issues
     * plugin's {@code issues_create} tool, carries the visitor's reason as its title and the transcript; its
     * comments come back through {@link TicketReplies}.
     */
    private void handoff(UUID ws, ChatRepository.Run run, Loaded loaded, String text) {
        Widget widget = loaded.widget();
        if (!widget.humanHandoff()) {
            complete(ws, run, UUID.randomUUID(), "system", (text == null ? "" : text + "\n\n")
                    + "Talking to a person is not available in this chat.", Json.mapper().createArrayNode());
            return;
        }
        String reason = abbreviate(loaded.message(), 200);
        UUID ticket = handoffService.openTicket(ws, widget.id(), reason, transcript(widget, loaded)).orElse(null);
        // Outside office hours the request is recorded all the same; the visitor learns when someone is back and
        // may leave an address so the team can answer by mail.
        Map<String, Object> availability = OfficeHours.describe(widget.officeHours(), java.time.Instant.now());
        boolean attended = (Boolean) availability.get("person_available");
        String notice = (text == null ? "" : text + "\n\n") + (attended
                ? "I have asked a person to take over. Their reply will appear here, you can keep this page open."
                : "Nobody from the team is in right now. " + availability.get("back_text") + ". Your request is "
                        + "recorded: leave your e-mail address and the team answers you by mail.");
        context.inWorkspace(ws, tx -> {
            if (!chats.finish(tx.handle(), ws, run.id(), settings.nodeId(), "completed", null, null)) {
                return null;
            }
            handoffs.open(tx.handle(), ws, run.sessionId(), reason, ticket);
            Map<String, Object> opened = new LinkedHashMap<>();
            opened.put("ticket_id", ticket);
            opened.put("state", "waiting");
            opened.put("availability", availability);
            chats.addEvent(tx.handle(), ws, run.sessionId(), ChatbotEvents.STREAM_HANDOFF_OPENED, opened);
            tx.events().publish(ChatbotEvents.HANDOFF_OPENED,
                    HandoffRepository.payload(run.sessionId(), widget.id(), "waiting", ticket));
            roster.mailHandoff(tx, run.sessionId(), widget.name(), reason);
            var message = chats.insertMessage(tx.handle(), ws, UUID.randomUUID(), run.sessionId(), "system", notice,
                    run.id(), Json.mapper().createArrayNode());
            chats.addEvent(tx.handle(), ws, run.sessionId(), ChatbotEvents.MESSAGE_COMPLETED, Map.of("message", message));
            chats.addEvent(tx.handle(), ws, run.sessionId(), ChatbotEvents.RUN_COMPLETED, Map.of("run_id", run.id()));
            return null;
        });
    }

    /**
     * A visitor message in a conversation handed over to a person: no answer from the assistant; the message (already
     * stored) is announced to the inbox and added to the ticket. The comment's author is the widget, which is how
     * {@link TicketReplies} tells it from a person's reply.
     */
    private void forward(UUID ws, ChatRepository.Run run, Loaded loaded) {
        UUID ticket = loaded.session().ticketId();
        UUID comment = ticket == null ? null : handoffService.commentOnTicket(ws, loaded.widget().id(), ticket,
                "Visitor: " + loaded.message()).orElse(null);
        context.inWorkspace(ws, tx -> {
            if (!chats.finish(tx.handle(), ws, run.id(), settings.nodeId(), "completed", null, null)) {
                return null;
            }
            if (comment != null) {
                handoffs.messageIsComment(tx.handle(), ws, run.messageId(), comment);
            }
            handoffs.visitorWrote(tx.handle(), ws, run.sessionId());
            tx.events().publish(ChatbotEvents.HANDOFF_MESSAGE, HandoffRepository.payload(run.sessionId(),
                    loaded.widget().id(), loaded.session().handoffState(), ticket));
            chats.addEvent(tx.handle(), ws, run.sessionId(), ChatbotEvents.RUN_COMPLETED, Map.of("run_id", run.id()));
            return null;
        });
    }

    private static String transcript(Widget widget, Loaded loaded) {
        StringBuilder t = new StringBuilder("Conversation handed over from the chat widget \"" + widget.name()
                + "\" (session " + loaded.session().id() + ", origin " + loaded.session().origin() + ").\n"
                + "Reply with a comment on this ticket: the visitor sees it in the chat.\n\n");
        for (var m : loaded.history()) {
            t.append('[').append(m.get("created_at")).append("] ").append(m.get("role")).append(": ")
                    .append(m.get("text")).append('\n');
        }
        return abbreviate(t.toString(), 49_000);
    }

    private static String abbreviate(String s, int max) {
        String oneLine = max <= 200 ? s.replaceAll("\\s+", " ").strip() : s;
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
    }

    private static List<Conversation.Turn> turns(List<Map<String, Object>> history, UUID current) {
        List<Conversation.Turn> turns = new ArrayList<>();
        for (var m : history) {
            if (!current.equals(m.get("id"))) {
                turns.add(new Conversation.Turn((String) m.get("role"), (String) m.get("text")));
            }
        }
        return turns;
    }

    private static Map<String, String> settingsOf(Widget w) {
        Map<String, String> s = new LinkedHashMap<>();
        w.settings().fields().forEachRemaining(e -> {
            if (e.getValue().isValueNode()) {
                s.put(e.getKey(), e.getValue().asText());
            }
        });
        s.put("language", w.language());
        s.put("human_handoff", Boolean.toString(w.humanHandoff()));
        return s;
    }

    private static JsonNode citations(Reply reply) {
        var array = Json.mapper().createArrayNode();
        for (var c : reply.citations()) {
            var o = array.addObject().put("title", c.title());
            if (c.url() == null) {
                o.putNull("url");
            } else {
                o.put("url", c.url());
            }
        }
        return array;
    }

    private static final class ResponderFailure extends Exception {
        final String code;

        ResponderFailure(String code, String detail) {
            super(detail);
            this.code = code;
        }
    }

    @Override
    public void close() {
        closed = true;
        running.forEach(Thread::interrupt);
    }
}
