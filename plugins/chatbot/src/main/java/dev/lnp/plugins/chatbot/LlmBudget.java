package dev.lnp.plugins.chatbot;

import dev.lnp.api.PluginContext;
import dev.lnp.plugins.chatbot.api.Conversation;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Keeps a widget's language model within its limits ({@link LlmLimits}). A request is counted before the model is
 * called, so the request limits hold exactly across nodes; tokens are counted when the answer is in, so a token
 * limit is checked before each request and may be passed by the one answer that reaches it.
 */
final class LlmBudget {

    private final Supplier<PluginContext> context;
    private final LlmUsageRepository usage;
    private final Clock clock;

    LlmBudget(Supplier<PluginContext> context, LlmUsageRepository usage, Clock clock) {
        this.context = context;
        this.usage = usage;
        this.clock = clock;
    }

    /** Counts one request, or says which limit stops it (nothing counted then). */
    Optional<LlmLimits.Reached> take(Conversation c) {
        LlmLimits limits = LlmLimits.of(c.settings());
        if (limits.none()) {
            return Optional.empty();
        }
        String session = LlmUsageRepository.sessionPeriod(c.sessionId());
        String day = LlmUsageRepository.dayPeriod(today());
        return context.get().inWorkspace(c.workspaceId(), tx -> {
            // The day's row first, then the session's: every run locks in the same order.
            var daily = usage.lock(tx.handle(), c.workspaceId(), c.widgetId(), day);
            var conversation = usage.lock(tx.handle(), c.workspaceId(), c.widgetId(), session);
            LlmLimits.Reached reached = limits.reached(conversation.requests(), conversation.tokens(),
                    daily.requests(), daily.tokens());
            if (reached == null) {
                usage.add(tx.handle(), c.workspaceId(), c.widgetId(), day, 1, 0);
                usage.add(tx.handle(), c.workspaceId(), c.widgetId(), session, 1, 0);
            }
            return Optional.ofNullable(reached);
        });
    }

    /** Adds the tokens an answer used to the conversation's and the day's counts. */
    void used(Conversation c, long tokens) {
        if (tokens <= 0 || LlmLimits.of(c.settings()).none()) {
            return;
        }
        String day = LlmUsageRepository.dayPeriod(today());
        context.get().inWorkspace(c.workspaceId(), tx -> {
            usage.lock(tx.handle(), c.workspaceId(), c.widgetId(), day);
            usage.add(tx.handle(), c.workspaceId(), c.widgetId(), day, 0, tokens);
            usage.lock(tx.handle(), c.workspaceId(), c.widgetId(), LlmUsageRepository.sessionPeriod(c.sessionId()));
            usage.add(tx.handle(), c.workspaceId(), c.widgetId(), LlmUsageRepository.sessionPeriod(c.sessionId()), 0,
                    tokens);
            return null;
        });
    }

    /** What the visitor reads instead of an answer: polite, and pointing to a person where the widget has one. */
    static String refusal(LlmLimits.Reached reached, boolean humanHandoff) {
        String why = reached == LlmLimits.Reached.SESSION
                ? "Sorry, I cannot answer more questions in this conversation."
                : "Sorry, I cannot answer more questions today.";
        return humanHandoff ? why + " A person from the team can help you: choose \"Talk to a person\"."
                : why + " Please try again later.";
    }

    private LocalDate today() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC));
    }
}
