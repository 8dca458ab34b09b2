package dev.lnp.api.pages;

import java.util.List;
import java.util.Objects;

/**
 * A module's home: the figures its people steer by, as headline numbers and charts, each number leading to the
 * list behind it. The web layer draws the charts (SVG) with their numbers as tables, so the page reads without
 * the picture and works without JavaScript.
 *
 * @param figures headline numbers, shown first
 * @param charts  the pictures, in order
 * @param actions links to the module's lists and boards
 */
public record DashboardView(String title, List<Figure> figures, List<Chart> charts, List<Link> actions)
        implements PageView {

    public DashboardView {
        Objects.requireNonNull(title, "title");
        figures = List.copyOf(figures);
        charts = List.copyOf(charts);
        actions = List.copyOf(actions);
    }

    public static DashboardView of(String title, List<Chart> charts) {
        return new DashboardView(title, List.of(), charts, List.of());
    }

    public DashboardView figures(Figure... figures) {
        return new DashboardView(title, List.of(figures), charts, actions);
    }

    public DashboardView actions(Link... actions) {
        return new DashboardView(title, figures, charts, List.of(actions));
    }
}
