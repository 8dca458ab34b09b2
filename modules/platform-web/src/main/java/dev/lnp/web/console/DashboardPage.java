package dev.lnp.web.console;

import dev.lnp.api.internal.console.Chrome;
import java.util.List;

/**
 * The model of a module's home ({@code pagedashboard.jte}): headline figures and the charts as {@link ChartDrawing}
 * drew them, each with the table of its numbers.
 */
public record DashboardPage(Chrome chrome, String notice, List<Figure> figures, List<Picture> charts,
        List<PageViews.Link> actions, String csrf, String live) {

    public record Figure(String label, String value, String note, String href) {
    }

    /**
     * One chart, drawn in a {@code viewBox} of {@link ChartDrawing#WIDTH} by {@link ChartDrawing#HEIGHT}.
     *
     * @param id       unique on the page: the figure's heading and the table refer to it
     * @param empty    nothing to draw: the page says {@code emptyText} instead of the picture and the table
     * @param axisUnit what the vertical axis counts, or {@code null}
     */
    public record Picture(String id, String title, String summary, boolean empty, String emptyText, String axisUnit,
            List<Tick> ticks, List<Bar> bars, List<Label> valueLabels, List<Label> categoryLabels, List<Line> lines,
            List<LegendEntry> legend, NumberTable table) {

        public String headingId() {
            return id + "-title";
        }

        public String viewBox() {
            return "0 0 " + ChartDrawing.WIDTH + " " + ChartDrawing.HEIGHT;
        }

        /** Where the grid lines end on the right. */
        public int gridEnd() {
            return ChartDrawing.WIDTH - 8;
        }
    }

    /** A horizontal grid line at {@code y} with its value on the axis. */
    public record Tick(double y, String text) {
    }

    /** A bar (or a bar's segment), {@code series} its index for the fill pattern; {@code href} may be null. */
    public record Bar(double x, double y, double width, double height, int series, String href) {
    }

    /** A text at a point, anchored {@code start}, {@code middle} or {@code end}. */
    public record Label(double x, double y, String text, String anchor) {
    }

    /** A series as a line: its points as the {@code points} attribute of a polyline, and each point. */
    public record Line(int series, String points, List<Point> markers) {
    }

    public record Point(double x, double y, String href) {
    }

    public record LegendEntry(int series, String name) {
    }

    /** The chart's numbers: a row per category, a column per series, each cell linked to its list if it has one. */
    public record NumberTable(String categoryHeading, List<String> headings, List<Row> rows) {
    }

    public record Row(String label, List<Cell> cells) {
    }

    /** {@code context} is read with the link by screen readers, e.g. "deals, Proposal". */
    public record Cell(String text, String href, String context) {
    }
}
