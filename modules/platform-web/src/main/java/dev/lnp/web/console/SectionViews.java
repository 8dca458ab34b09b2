package dev.lnp.web.console;

import dev.lnp.api.internal.console.Chrome;
import java.util.List;

/** The models of the pages of plugin console sections ({@link SectionPages}). */
public final class SectionViews {

    private SectionViews() {
    }

    public record Crumb(String label, String href) {
    }

    /** Where the page is: the section's list, or for a child section the parent's list and row first. */
    public record Header(List<Crumb> crumbs) {
        public boolean nested() {
            return crumbs.size() > 1;
        }
    }

    public record Cell(String text, String href) {
    }

    public record Row(String id, List<Cell> cells) {
    }

    public record ListPage(Chrome chrome, Header header, String description, List<String> columns,
            List<Row> rows, String emptyText, int page, long pages, long total, String previousHref, String nextHref,
            String createHref, String createLabel) {
    }

    public record Fact(String label, String value) {
    }

    public record Action(String label, String href, boolean confirm, boolean dangerous) {
    }

    public record RowPage(Chrome chrome, Header header, String heading, List<Fact> facts, List<Action> actions,
            List<Crumb> children, String notice, String editHref, String editLabel, String csrf) {
    }


    public record ConfirmPage(Chrome chrome, Header header, String heading, String text, String action,
            String cancelHref, String submit, boolean dangerous, String csrf) {
    }

    public record SecretPage(Chrome chrome, Header header, String label, String value, String note,
            String doneHref) {
    }
}
