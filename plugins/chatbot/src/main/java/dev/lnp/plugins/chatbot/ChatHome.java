package dev.lnp.plugins.chatbot;

import dev.lnp.api.pages.Chart;
import dev.lnp.api.pages.DashboardView;
import dev.lnp.api.pages.Figure;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The chat home ({@code /app/chat/overview}): per week, the conversations the assistant answered alone and those
 * handed to a person, and how many wait for one now (leading to them in the chat inbox).
 */
final class ChatHome {

    static final String PATH = InboxPages.INBOX + "/overview";
    static final int WEEKS = 12;
    static final DateTimeFormatter WEEK = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);

    /** Registered before the inbox's {@code /app/chat/{id}}, which would otherwise take the address. */
    PageRoute page() {
        return PageRoute.view(PATH).scope(ChatbotScopes.READ).nav("Support", "Chat overview")
                .liveOn(ChatbotEvents.HANDOFF_OPENED).renderer(this::home);
    }

    private PageView home(PageCall call) {
        var figures = new ChatFigures(call.tx().handle(), call.workspaceId());
        List<ChatFigures.Week> weeks = figures.perWeek(WEEKS);
        long alone = weeks.stream().mapToLong(ChatFigures.Week::assistantAlone).sum();
        long handed = weeks.stream().mapToLong(ChatFigures.Week::handedOver).sum();
        Chart perWeek = Chart.of(Chart.Kind.STACKED_BAR, "Conversations per week: the assistant alone or a person",
                        weeks.stream().map(w -> WEEK.format(w.week())).toList())
                .unit("conversations")
                .summary("Each of the last 12 weeks, by the Monday it starts on: the conversations in which a "
                        + "visitor wrote, answered by the assistant alone or handed to a person.")
                .emptyText("No visitor has written in the last 12 weeks.")
                .series(Chart.Series.of("Assistant alone", weeks.stream().map(w -> (double) w.assistantAlone()).toList()),
                        Chart.Series.of("Handed to a person", weeks.stream().map(w -> (double) w.handedOver()).toList()));
        long waiting = figures.waiting();
        return DashboardView.of("Chat", List.of(perWeek))
                .figures(new Figure("Waiting for a person", String.valueOf(waiting), "Handed over, nobody has taken "
                                + "them yet", InboxPages.INBOX + "?state=waiting"),
                        Figure.of("Answered by the assistant alone", alone + handed == 0 ? "—"
                                        : Math.round(100.0 * alone / (alone + handed)) + " %",
                                alone + handed == 0 ? "No conversation in the last 12 weeks."
                                        : alone + " of " + (alone + handed) + " conversations in the last 12 weeks"))
                .actions(Link.to("Chat inbox", InboxPages.INBOX));
    }
}
