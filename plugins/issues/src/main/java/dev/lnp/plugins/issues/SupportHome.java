package dev.lnp.plugins.issues;

import dev.lnp.api.pages.Chart;
import dev.lnp.api.pages.DashboardView;
import dev.lnp.api.pages.Figure;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The Support home ({@code /app/support}): tickets opened and closed per week over the last twelve weeks, the
 * open tickets (leading to them in the inbox) and the median time to a first reply.
 */
final class SupportHome {

    static final String PATH = "/app/support";
    static final int WEEKS = 12;
    static final DateTimeFormatter WEEK = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);

    PageRoute page() {
        return PageRoute.view(PATH).scope(IssueScopes.READ).nav("Support", "Overview")
                .liveOn("issues.ticket.*", "issues.comment.created").renderer(this::home);
    }

    private PageView home(PageCall call) {
        var figures = new TicketFigures(call.tx().handle(), call.workspaceId());
        List<TicketFigures.Week> weeks = figures.perWeek(WEEKS);
        TicketFigures.FirstReplies replies = figures.firstReplies(WEEKS);
        long open = figures.open();
        String openList = TicketPages.INBOX + "?" + TicketFigures.OPEN_STATUSES.stream().map(s -> "status=" + s)
                .collect(Collectors.joining("&"));
        Chart perWeek = Chart.of(Chart.Kind.BAR, "Tickets opened and closed per week",
                        weeks.stream().map(w -> WEEK.format(w.week())).toList())
                .unit("tickets")
                .summary("Each of the last 12 weeks, by the Monday it starts on: tickets created, and tickets "
                        + "solved or closed.")
                .emptyText("No ticket was opened or closed in the last 12 weeks.")
                .series(Chart.Series.of("Opened", weeks.stream().map(w -> (double) w.opened()).toList()),
                        Chart.Series.of("Closed", weeks.stream().map(w -> (double) w.closed()).toList()));
        return DashboardView.of("Support", List.of(perWeek))
                .figures(new Figure("Open tickets", String.valueOf(open), "New, open, pending or on hold", openList),
                        Figure.of("Median first reply", replies.median() == null ? "—" : duration(replies.median()),
                                firstReplyNote(replies)))
                .actions(Link.to("Ticket inbox", TicketPages.INBOX), Link.to("Unassigned tickets",
                        TicketPages.INBOX + "?unassigned=true"));
    }

    private static String firstReplyNote(TicketFigures.FirstReplies replies) {
        if (replies.opened() == 0) return "No ticket was opened in the last 12 weeks.";
        long waiting = replies.opened() - replies.answered();
        return "From a ticket's creation to the first public reply by a member, over the " + replies.opened()
                + (replies.opened() == 1 ? " ticket" : " tickets") + " opened in the last 12 weeks"
                + (waiting == 0 ? "." : "; " + waiting + " not answered yet " + (waiting == 1 ? "is" : "are")
                + " left out.");
    }

    /** A wait as people say it: "45 min", "2 h 15 min", "3 d 4 h". */
    static String duration(Duration wait) {
        long minutes = wait.toMinutes();
        if (minutes < 1) return "under a minute";
        if (minutes < 60) return minutes + " min";
        long hours = wait.toHours();
        if (hours < 24) return hours + " h" + (minutes % 60 == 0 ? "" : " " + minutes % 60 + " min");
        return wait.toDays() + " d" + (hours % 24 == 0 ? "" : " " + hours % 24 + " h");
    }
}
