package dev.lnp.web.console;

import dev.lnp.api.pages.Chart;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a {@link Chart} as coordinates for {@code pagechart.jte}: bars, stacks or lines on a grid with rounded
 * steps, each bar labelled with its number and each line with its name, so the picture reads without telling
 * colours apart. Only the shapes are computed here; every text is escaped by the template.
 */
final class ChartDrawing {

    static final int WIDTH = 640;
    static final int HEIGHT = 260;
    private static final double LEFT = 56;
    /** Room above the grid for the axis's unit and the tallest bar's number. */
    private static final double TOP = 30;
    private static final double BOTTOM = 40;
    /** Room on the right of a line chart for each line's name at its end. */
    private static final double LINE_LABELS = 110;
    /** Above this many bars their numbers would overlap: the table still has them. */
    private static final int MOST_LABELLED_BARS = 26;
    /** At most this many category labels under the axis; the others are left out, every n-th is kept. */
    private static final int MOST_CATEGORY_LABELS = 13;

    private ChartDrawing() {
    }

    static DashboardPage.Picture draw(String id, Chart chart) {
        DashboardPage.NumberTable table = table(chart);
        if (chart.empty() || chart.labels().isEmpty()) {
            return new DashboardPage.Picture(id, chart.title(), chart.summary(), true, chart.emptyText(), chart.unit(),
                    List.of(), List.of(), List.of(), List.of(), List.of(), legend(chart), table);
        }
        double right = chart.kind() == Chart.Kind.LINE ? LINE_LABELS : 12;
        double plotWidth = WIDTH - LEFT - right;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        double step = step(highest(chart));
        double top = step * 4;
        List<DashboardPage.Tick> ticks = new ArrayList<>();
        for (int i = 0; i <= 4; i++) {
            ticks.add(new DashboardPage.Tick(round(TOP + plotHeight - plotHeight * i / 4), number(step * i)));
        }
        int n = chart.labels().size();
        double band = plotWidth / n;
        List<DashboardPage.Label> categories = new ArrayList<>();
        int every = (n + MOST_CATEGORY_LABELS - 1) / MOST_CATEGORY_LABELS;
        for (int i = 0; i < n; i += every) {
            categories.add(new DashboardPage.Label(round(LEFT + band * (i + 0.5)), HEIGHT - BOTTOM + 18,
                    chart.labels().get(i), "middle"));
        }
        List<DashboardPage.Bar> bars = new ArrayList<>();
        List<DashboardPage.Label> values = new ArrayList<>();
        List<DashboardPage.Line> lines = new ArrayList<>();
        double baseline = TOP + plotHeight;
        switch (chart.kind()) {
            case BAR -> {
                int k = chart.series().size();
                double barWidth = band * 0.8 / k;
                boolean labelled = n * k <= MOST_LABELLED_BARS;
                for (int i = 0; i < n; i++) {
                    for (int s = 0; s < k; s++) {
                        double value = chart.series().get(s).values().get(i);
                        double height = plotHeight * value / top;
                        double x = LEFT + band * i + band * 0.1 + barWidth * s;
                        bars.add(new DashboardPage.Bar(round(x), round(baseline - height), round(barWidth),
                                round(height), s, local(chart.series().get(s).href(i))));
                        if (labelled) {
                            values.add(new DashboardPage.Label(round(x + barWidth / 2), round(baseline - height - 4),
                                    number(value), "middle"));
                        }
                    }
                }
            }
            case STACKED_BAR -> {
                double barWidth = band * 0.6;
                for (int i = 0; i < n; i++) {
                    double sum = 0;
                    double x = LEFT + band * i + band * 0.2;
                    for (int s = 0; s < chart.series().size(); s++) {
                        double value = chart.series().get(s).values().get(i);
                        double y = baseline - plotHeight * (sum + value) / top;
                        bars.add(new DashboardPage.Bar(round(x), round(y), round(barWidth),
                                round(plotHeight * value / top), s, local(chart.series().get(s).href(i))));
                        sum += value;
                    }
                    if (n <= MOST_LABELLED_BARS) {
                        values.add(new DashboardPage.Label(round(x + barWidth / 2),
                                round(baseline - plotHeight * sum / top - 4), number(sum), "middle"));
                    }
                }
            }
            case LINE -> {
                for (int s = 0; s < chart.series().size(); s++) {
                    Chart.Series series = chart.series().get(s);
                    StringBuilder points = new StringBuilder();
                    List<DashboardPage.Point> markers = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        double x = round(LEFT + band * (i + 0.5));
                        double y = round(baseline - plotHeight * series.values().get(i) / top);
                        points.append(i == 0 ? "" : " ").append(x).append(',').append(y);
                        markers.add(new DashboardPage.Point(x, y, local(series.href(i))));
                    }
                    lines.add(new DashboardPage.Line(s, points.toString(), markers));
                    DashboardPage.Point last = markers.getLast();
                    // The line's name where it ends, so no legend lookup is needed; lines ending close together
                    // are told apart by the table and the legend.
                    values.add(new DashboardPage.Label(last.x() + 8, last.y() + 4,
                            series.name() + " " + number(series.values().getLast()), "start"));
                }
            }
        }
        return new DashboardPage.Picture(id, chart.title(), chart.summary(), false, chart.emptyText(), chart.unit(),
                ticks, bars, values, categories, lines, legend(chart), table);
    }

    private static List<DashboardPage.LegendEntry> legend(Chart chart) {
        List<DashboardPage.LegendEntry> legend = new ArrayList<>();
        for (int s = 0; s < chart.series().size(); s++) {
            legend.add(new DashboardPage.LegendEntry(s, chart.series().get(s).name()));
        }
        return legend;
    }

    private static DashboardPage.NumberTable table(Chart chart) {
        String unit = chart.unit() == null ? "" : " (" + chart.unit() + ")";
        List<String> headings = chart.series().stream().map(s -> s.name() + unit).toList();
        List<DashboardPage.Row> rows = new ArrayList<>();
        for (int i = 0; i < chart.labels().size(); i++) {
            List<DashboardPage.Cell> cells = new ArrayList<>();
            for (Chart.Series series : chart.series()) {
                String context = (chart.unit() == null ? "" : chart.unit() + ", ") + series.name() + ", "
                        + chart.labels().get(i);
                cells.add(new DashboardPage.Cell(number(series.values().get(i)), series.href(i), context));
            }
            rows.add(new DashboardPage.Row(chart.labels().get(i), cells));
        }
        return new DashboardPage.NumberTable("", headings, rows);
    }

    private static double highest(Chart chart) {
        double highest = 0;
        for (int i = 0; i < chart.labels().size(); i++) {
            double sum = 0;
            for (Chart.Series series : chart.series()) {
                double value = series.values().get(i);
                highest = Math.max(highest, value);
                sum += value;
            }
            if (chart.kind() == Chart.Kind.STACKED_BAR) {
                highest = Math.max(highest, sum);
            }
        }
        return highest;
    }

    /** The grid's step: 1, 2 or 5 times a power of ten, four of which reach {@code highest}. */
    static double step(double highest) {
        double raw = Math.max(highest, 1) / 4;
        double power = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double nice : new double[] {1, 2, 2.5, 5, 10}) {
            // 2.5 only from 25 up: a count of things has no half on its axis.
            if (nice * power >= raw && (nice != 2.5 || power >= 10)) {
                return Math.max(nice * power, highest < 4 ? 1 : 0);
            }
        }
        return 10 * power;
    }

    /** A number as people read it: thousands grouped, at most one decimal. */
    static String number(double value) {
        DecimalFormat format = new DecimalFormat("#,##0.#", DecimalFormatSymbols.getInstance(Locale.ENGLISH));
        return format.format(value);
    }

    /** A link only to a path of the platform, as every link a page shows. */
    private static String local(String href) {
        return href == null || !ReturnPaths.isLocal(href) ? null : href;
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
