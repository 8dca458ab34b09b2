package dev.lnp.web.console;

import dev.lnp.api.internal.console.Chrome;
import dev.lnp.api.pages.DashboardView;
import java.util.ArrayList;
import java.util.List;

/** A {@link DashboardView} as the model of {@code pagedashboard.jte}: its figures, and each chart drawn. */
final class DashboardRendering {

    private DashboardRendering() {
    }

    static DashboardPage page(Chrome chrome, DashboardView home, String notice, List<PageViews.Link> actions,
            String csrf, String live) {
        List<DashboardPage.Figure> figures = home.figures().stream()
                .map(f -> new DashboardPage.Figure(f.label(), f.value(), f.note(), local(f.href()))).toList();
        List<DashboardPage.Picture> charts = new ArrayList<>();
        for (int i = 0; i < home.charts().size(); i++) {
            charts.add(ChartDrawing.draw("chart-" + (i + 1), home.charts().get(i)));
        }
        return new DashboardPage(chrome, notice, figures, charts, actions, csrf, live);
    }

    private static String local(String href) {
        return href == null || !ReturnPaths.isLocal(href) ? null : href;
    }
}
