package dev.lnp.plugins.chatbot;

import dev.lnp.api.JsonSchemas;
import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.events.EventType;
import dev.lnp.api.internal.events.Subscriptions;
import dev.lnp.api.mail.Mailer;
import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.pages.PageRegistrar;
import dev.lnp.plugins.chatbot.api.Responders;
import java.util.List;

/**
 * Chat widgets: the management API ({@link WidgetRoutes}), the public chat endpoints ({@link ChatRoutes}), runs
 * ({@link RunWorker}), responders ({@link Responders}, offered to other plugins) and hand-off replies
 * ({@link TicketReplies}). Decisions the contract leaves open are in docs/chatbot.md.
 */
public final class ChatbotPlugin implements PlatformPlugin {

    public static final String SCHEMA = "chatbot";

    private final WidgetRepository widgets = new WidgetRepository();
    private final ChatRepository chats = new ChatRepository();
    private final ResponderRegistry responders = new ResponderRegistry();
    private final HandoffRepository handoffs = new HandoffRepository();
    private final HandoffService handoffService = new HandoffService(() -> this.context, chats, handoffs);
    private final DutyRoster roster = new DutyRoster(() -> this.context.service(Mailer.class).orElseThrow(),
            () -> this.settings == null ? "" : this.settings.baseUrl());
    private final WidgetScript script = WidgetScript.load();
    private final KnowledgeRepository knowledge = new KnowledgeRepository();
    private final Embedder embedder = new Embedder();
    private volatile Retriever retriever;
    private volatile KnowledgeIndexer indexer;
    private volatile PluginContext context;
    private volatile ChatSettings settings;
    private volatile RunWorker runs;
    private volatile ChatService chat;
    private volatile boolean stopping;
    private final StreamSignals signals = new StreamSignals();
    private volatile dev.lnp.api.internal.events.Notifications.Listening listening;

    @Override
    public void register(Registrar registrar) {
        registrar.scope(ChatbotScopes.READ, "Read chat widgets and their knowledge articles")
                .scope(ChatbotScopes.WRITE, "Create, change, delete chat widgets, rotate their keys, edit articles")
                .migrations(SCHEMA)
                .provide(Responders.class, responders);
        var service = new WidgetService(widgets, () -> settings == null ? "" : settings.baseUrl(), () -> script,
                () -> context.service(OutboundGuard.class).orElseThrow());
        var widgetRoutes = new WidgetRoutes(service);
        widgetRoutes.routes().forEach(registrar::route);
        PageRegistrar pages = PageRegistrar.of(registrar);
        new WidgetPages(service, widgetRoutes).pages().forEach(pages::page);
        // The public routes resolve their services at request time: they exist only after start().
        new ChatRoutes(() -> chat, () -> context, widgets, () -> settings, () -> script, () -> stopping,
                () -> signals)
                .routes().forEach(registrar::route);
        // The knowledge's services exist after start (they need the context); the routes resolve them per request.
        var knowledgeService = new KnowledgeService(knowledge, () -> retriever,
                () -> context.service(OutboundGuard.class).orElseThrow());
        var knowledgeRoutes = new KnowledgeRoutes(knowledgeService);
        knowledgeRoutes.routes().forEach(registrar::route);
        new KnowledgePages(knowledgeService, knowledgeRoutes).pages().forEach(pages::page);
        pages.page(new ChatHome().page());
        var insights = new ChatInsights();
        insights.routes().forEach(registrar::route);
        insights.pages().forEach(pages::page);
        new InboxPages(handoffService, handoffs, chats, roster).pages().forEach(pages::page);
        var handoff = JsonSchemas.load(ChatbotPlugin.class, "handoff-opened.json");
        registrar.event(new EventType(ChatbotEvents.HANDOFF_OPENED, "A chat visitor was handed over to a person: "
                + "the conversation waits in the chat inbox, and a support ticket was opened with the transcript",
                handoff, List.of()));
        registrar.event(new EventType(ChatbotEvents.HANDOFF_MESSAGE, "A visitor wrote in a conversation handed over "
                + "to a person", handoff, List.of()));
        registrar.event(new EventType(ChatbotEvents.HANDOFF_TAKEN, "A member took a handed-over chat conversation over",
                handoff, List.of()));
        registrar.event(new EventType(ChatbotEvents.HANDOFF_REPLIED, "A member replied to a chat visitor", handoff,
                List.of()));
        registrar.event(new EventType(ChatbotEvents.HANDOFF_CLOSED, "A member closed a handed-over chat conversation: "
                + "the assistant answers the visitor again", handoff, List.of()));
        var replies = new TicketReplies(() -> context, chats);
        Subscriptions.of(registrar).subscribe(ChatbotEvents.COMMENT_CREATED, replies::onComment);
        // A solved or closed hand-off ticket drafts knowledge from the team's reply, for an admin to approve.
        Subscriptions.of(registrar).subscribe(TicketAnswers.TICKET_UPDATED,
                new TicketAnswers(() -> context, knowledge)::onTicketUpdated);
        responders.register(new KnowledgeResponder(() -> retriever));
        registrar.worker("knowledge-indexer", context -> settings.indexInterval(), context -> indexer.run());
        responders.register(new HandoffResponder());
        registrar.worker("run-sweeper", context -> settings.sweepInterval(), context -> runs.sweep());
    }

    @Override
    public void start(PluginContext context) {
        this.context = context;
        this.settings = ChatSettings.from(context);
        if (settings.tokenLifetime().compareTo(dev.lnp.api.internal.tokens.SessionTokens.MAX_LIFETIME) > 0) {
            throw new IllegalArgumentException("lnp.chatbot.token_lifetime is at most 15 minutes");
        }
        this.retriever = new Retriever(() -> context, knowledge, embedder,
                new VectorCache(knowledge, settings.cachedVectors()));
        this.indexer = new KnowledgeIndexer(() -> context, knowledge, embedder,
                new PageFetcher(() -> context.service(OutboundGuard.class).orElseThrow()));
        responders.register(new OpenAiResponder(settings, retriever,
                () -> context.service(OutboundGuard.class).orElseThrow(),
                new LlmBudget(() -> context, new LlmUsageRepository(), java.time.Clock.systemUTC())));
        this.listening = context.service(dev.lnp.api.internal.events.Notifications.class).orElseThrow()
                .listen(StreamSignals.CHANNEL, signals::wake);
        this.runs = new RunWorker(context, settings, chats, widgets, responders, handoffService, handoffs, roster);
        this.chat = new ChatService(() -> context, settings, widgets, chats, runs);
    }

    @Override
    public void stop() {
        stopping = true;
        if (runs != null) {
            runs.close();
        }
        if (listening != null) {
            listening.close();
        }
    }
}
