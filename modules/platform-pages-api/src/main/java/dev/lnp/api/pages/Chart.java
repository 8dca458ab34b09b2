package dev.lnp.api.pages;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A chart on a {@link DashboardView}: numbers per category (a stage, a month, a week, a day), one or more series
 * of them, drawn by the web layer as an SVG picture with its numbers as a table beside it. Every plugin answers
 * the same shape, so every home page reads alike: each series is told apart by a pattern or a line style and
 * labelled directly, not by colour alone.
 *
 * <pre>{@code
 * Chart.of(Chart.Kind.BAR, "Open deals by stage", List.of("Discovery", "Proposal"))
 *         .unit("deals")
 *         .series(Chart.Series.of("Deals", List.of(4.0, 2.0))
 *                 .linkedTo(List.of("/app/crm/deals?stage=discovery", "/app/crm/deals?stage=proposal")))
 * }</pre>
 *
 * @param kind     {@link Kind#BAR} (several series side by side), {@link Kind#STACKED_BAR} (several series on top
 *                 of each other, the bar's height their sum) or {@link Kind#LINE} (a value per category, joined)
 * @param unit     what the numbers count or measure, e.g. {@code deals}, {@code hours}; {@code null} for none
 * @param labels   the categories, in the order they are drawn (left to right)
 * @param summary  one sentence saying what the picture shows, for everyone (shown under the title); may be null
 * @param emptyText what is said instead of the picture when there is nothing to draw (every value zero)
 */
public record Chart(String title, Kind kind, String unit, List<String> labels, List<Series> series, String summary,
                    String emptyText) {

    /** How the numbers are drawn. */
    public enum Kind { BAR, STACKED_BAR, LINE }

    /**
     * One row of numbers, one per category of the chart.
     *
     * @param name   what the series is, e.g. {@code Won}; the legend and the table's column say it
     * @param values one per label of the chart, not negative
     * @param hrefs  the list behind each number (e.g. the deals of that stage), {@code null} where there is none;
     *               empty when no number of the series has one
     */
    public record Series(String name, List<Double> values, List<String> hrefs) {
        public Series {
            Objects.requireNonNull(name, "name");
            values = List.copyOf(values);
            for (Double value : values) {
                if (value < 0 || value.isNaN() || value.isInfinite()) {
                    throw new IllegalArgumentException("series " + name + " has a value a chart cannot draw: " + value);
                }
            }
            // Nulls are allowed here (a number with no list behind it), so not List.copyOf.
            hrefs = Collections.unmodifiableList(new ArrayList<>(hrefs));
            if (!hrefs.isEmpty() && hrefs.size() != values.size()) {
                throw new IllegalArgumentException("series " + name + " has " + hrefs.size() + " links for "
                        + values.size() + " values");
            }
            for (String href : hrefs) {
                if (href != null && !href.startsWith("/")) {
                    throw new IllegalArgumentException("a link stays on the platform: " + href);
                }
            }
        }

        public static Series of(String name, List<Double> values) {
            return new Series(name, values, List.of());
        }

        /** The same numbers, each linking to the list behind it ({@code null} for a number with none). */
        public Series linkedTo(List<String> hrefs) {
            return new Series(name, values, hrefs);
        }

        /** The list behind the value at {@code index}, or {@code null}. */
        public String href(int index) {
            return hrefs.isEmpty() ? null : hrefs.get(index);
        }
    }

    public Chart {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(kind, "kind");
        labels = List.copyOf(labels);
        series = List.copyOf(series);
        for (Series s : series) {
            if (s.values().size() != labels.size()) {
                throw new IllegalArgumentException("chart " + title + ": series " + s.name() + " has "
                        + s.values().size() + " values for " + labels.size() + " labels");
            }
        }
        if (emptyText == null) emptyText = "No data yet.";
    }

    public static Chart of(Kind kind, String title, List<String> labels) {
        return new Chart(title, kind, null, labels, List.of(), null, null);
    }

    public Chart unit(String unit) {
        return new Chart(title, kind, unit, labels, series, summary, emptyText);
    }

    public Chart summary(String summary) {
        return new Chart(title, kind, unit, labels, series, summary, emptyText);
    }

    public Chart emptyText(String emptyText) {
        return new Chart(title, kind, unit, labels, series, summary, emptyText);
    }

    public Chart series(Series... more) {
        List<Series> all = new ArrayList<>(series);
        all.addAll(List.of(more));
        return new Chart(title, kind, unit, labels, all, summary, emptyText);
    }

    /** Whether there is nothing to draw: no category, no series, or every value zero. */
    public boolean empty() {
        return series.stream().flatMap(s -> s.values().stream()).allMatch(v -> v == 0);
    }
}
