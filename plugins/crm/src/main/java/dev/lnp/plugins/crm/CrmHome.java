package dev.lnp.plugins.crm;

import dev.lnp.api.pages.Chart;
import dev.lnp.api.pages.DashboardView;
import dev.lnp.api.pages.Figure;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import java.math.BigDecimal;
import java.text.NumberFormat;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The CRM's home ({@code /app/crm}): the open pipeline's value by stage and by expected close month, and the deals
 * won and lost per month over the last year, each stage's number leading to its deals.
 */
final class CrmHome {

    static final String PATH = "/app/crm";
    /** Stages a deal can be open in, in pipeline order: the closed ones are counted per month instead. */
    private static final List<String> OPEN_STAGES = DealListing.STAGES.stream().filter(s -> !s.startsWith("closed_"))
            .toList();
    private static final int CLOSE_MONTHS = 6;
    private static final int CLOSED_MONTHS = 12;
    static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("MMM ''yy", Locale.ENGLISH);

    PageRoute page() {
        return PageRoute.view(PATH).scope(CrmScopes.DEALS_READ).nav("CRM", "Overview").liveOn("crm.deal.*")
                .renderer(this::home);
    }

    private PageView home(PageCall call) {
        var figures = new DealFigures(call.tx().handle(), call.workspaceId());
        Map<String, DealFigures.StageValue> byStage = figures.pipelineByStage().stream()
                .collect(Collectors.toMap(DealFigures.StageValue::stage, Function.identity()));
        long openCount = byStage.values().stream().mapToLong(DealFigures.StageValue::count).sum();
        BigDecimal openValue = byStage.values().stream().map(DealFigures.StageValue::value)
                .reduce(BigDecimal.ZERO, BigDecimal::add);
        List<DealFigures.Closed> closed = figures.closedPerMonth(CLOSED_MONTHS);
        long won = closed.stream().mapToLong(DealFigures.Closed::won).sum();
        long lost = closed.stream().mapToLong(DealFigures.Closed::lost).sum();
        return DashboardView.of("CRM", List.of(byStage(byStage), byCloseMonth(figures.openByCloseMonth(CLOSE_MONTHS)),
                        closed(closed)))
                .figures(new Figure("Open pipeline", money(openValue), openCount + (openCount == 1 ? " deal" : " deals")
                                + " open or on hold", DealPages.LIST + "?status=open&status=on_hold"),
                        Figure.of("Won in the last 12 months", String.valueOf(won), won + lost == 0
                                ? "No deal closed yet." : "of " + (won + lost) + " closed, "
                                + Math.round(100.0 * won / (won + lost)) + " % won"))
                .actions(Link.to("Pipeline", DealPages.BOARD), Link.to("Deals", DealPages.LIST),
                        Link.to("Contacts", ContactPages.LIST));
    }

    private static Chart byStage(Map<String, DealFigures.StageValue> byStage) {
        List<Double> values = new ArrayList<>();
        List<String> hrefs = new ArrayList<>();
        for (String stage : OPEN_STAGES) {
            var total = byStage.get(stage);
            values.add(total == null ? 0 : total.value().doubleValue());
            // A stage that is not a closed one holds only open and on-hold deals: its list is the stage's.
            hrefs.add(DealPages.LIST + "?stage=" + stage);
        }
        return Chart.of(Chart.Kind.BAR, "Pipeline value by stage", OPEN_STAGES.stream().map(CrmLabels::stage).toList())
                .summary("The value of the open and on-hold deals in each stage of the pipeline.")
                .emptyText("No open deal has a value yet.")
                .series(Chart.Series.of("Value", values).linkedTo(hrefs));
    }

    private static Chart byCloseMonth(List<DealFigures.CloseMonth> months) {
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (var month : months) {
            labels.add(switch (month.bucket()) {
                case "earlier" -> "Overdue";
                case "later" -> "Later";
                case "none" -> "No date";
                default -> MONTH.format(month.month());
            });
            values.add(month.value().doubleValue());
        }
        return Chart.of(Chart.Kind.BAR, "Open value by expected close month", labels)
                .summary("When the open deals are expected to close: overdue ones (expected before this month), "
                        + "the next " + CLOSE_MONTHS + " months, later, and those without a date.")
                .emptyText("No open deal has a value yet.")
                .series(Chart.Series.of("Value", values));
    }

    private static Chart closed(List<DealFigures.Closed> closed) {
        List<String> labels = closed.stream().map(c -> MONTH.format(c.month())).toList();
        return Chart.of(Chart.Kind.BAR, "Deals won and lost per month", labels).unit("deals")
                .summary("Deals closed in each of the last 12 months, by their close date (or, without one, the day "
                        + "they last changed).")
                .emptyText("No deal was won or lost in the last 12 months.")
                .series(Chart.Series.of("Won", closed.stream().map(c -> (double) c.won()).toList()),
                        Chart.Series.of("Lost", closed.stream().map(c -> (double) c.lost()).toList()));
    }

    private static String money(BigDecimal value) {
        return NumberFormat.getNumberInstance(Locale.ENGLISH).format(value);
    }
}
