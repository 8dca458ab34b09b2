package dev.lnp.web.console;

import dev.lnp.api.internal.console.Chrome;
import java.util.List;

/**
 * The models of the pages plugins contribute through the page API ({@link ContributedPages}). {@code live} is the
 * address of the page's event stream when it refreshes itself, else {@code null}.
 */
public final class PageViews {

    private PageViews() {
    }

    public record Link(String label, String href, boolean post, String confirm) {
    }

    /** A value an action made that this page shows once, with a copy button ({@code PageOutcome.showingOnce}). */
    public record ShownOnce(String label, String value, String note) {
    }

    public record Choice(String value, String label, boolean selected) {
    }

    /** A filter with what is asked now: {@code value} for search and choice, the choices' {@code selected} for any-of. */
    public record Filter(String param, String label, String kind, String value, List<Choice> choices) {
        public String id() {
            return "filter-" + param;
        }
    }

    /** A column heading; {@code sortHref} when the list can be sorted by it, {@code sorted} "ascending"/"descending". */
    public record Heading(String label, String sortHref, String sorted) {
    }

    public record Cell(String text, String href) {
    }

    public record Table(String caption, List<Heading> headings, List<List<Cell>> rows, String emptyText) {
    }

    /**
     * A list: filters (a GET form to {@code action}, keeping {@code kept} parameters), the table, the pages, and
     * when rows can be changed together, the {@code selection} form around the table.
     */
    public record ListPage(Chrome chrome, String notice, List<Link> actions, String action, List<Filter> filters,
            List<Choice> kept, Table table, int page, String previousHref, String nextHref, String csrf, String live,
            ShownOnce shownOnce, Selection selection) {

        public ListPage(Chrome chrome, String notice, List<Link> actions, String action, List<Filter> filters,
                List<Choice> kept, Table table, int page, String previousHref, String nextHref, String csrf,
                String live, ShownOnce shownOnce) {
            this(chrome, notice, actions, action, filters, kept, table, page, previousHref, nextHref, csrf, live,
                    shownOnce, null);
        }
    }

    /**
     * Rows changed together: a checkbox per row posting its id as {@code field} (labelled by the row's first cell),
     * and under the table the fields of the change ({@code legend}), posted with the rows to {@code action}.
     */
    public record Selection(String field, String action, String legend, List<String> rowIds,
            List<SchemaForm.Field> fields, String submit) {
        public String checkboxId(int row) {
            return "select-" + row;
        }
    }

    /** A record's field; {@code copyId} (null unless copyable) is the id of its code block for the Copy button. */
    public record Fact(String label, String value, String copyId) {
        public Fact(String label, String value) {
            this(label, value, null);
        }
    }

    public record DetailPage(Chrome chrome, String notice, List<Fact> facts, List<Table> related,
            List<Link> actions, String csrf, String live, ShownOnce shownOnce, List<InlineForm> forms) {

        public DetailPage(Chrome chrome, String notice, List<Fact> facts, List<Table> related,
                List<Link> actions, String csrf, String live, ShownOnce shownOnce) {
            this(chrome, notice, facts, related, actions, csrf, live, shownOnce, List.of());
        }
    }

    /**
     * A form on a record's page ({@code DetailView.withForm}), posted to {@code action}; after a refusal it carries
     * the errors (linked to their fields) and what was typed. {@code id} names its section; {@code shownOn} is the record page's address, where a refusal is shown.
     */
    public record InlineForm(String id, String heading, String action, String shownOn,
            List<SchemaForm.Field> fields, List<ErrorLink> errors, String summary, String submit) {
        public boolean refused() {
            return summary != null || !errors.isEmpty();
        }
    }

    public record Card(String id, String title, String subtitle, String href, String move, List<Choice> moveTo) {
        public String headingId() {
            return "card-" + id;
        }
    }

    public record Lane(String key, String label, String summary, List<Card> cards) {
        public String headingId() {
            return "lane-" + key;
        }
    }

    public record BoardPage(Chrome chrome, String notice, String field, List<Lane> lanes, List<Link> actions,
            String csrf, String live, ShownOnce shownOnce) {
    }

    /**
     * The options of a long choice narrowed by its search box; {@code offersNothing} when an empty choice is among
     * them (else "Choose…" is), {@code narrowed} when some records were left out.
     */
    public record Choices(List<dev.lnp.api.internal.console.Choice> options, boolean offersNothing, boolean narrowed) {
    }

    public record ErrorLink(String text, String href) {
    }

    /** A form generated from a schema, posted to {@code action}; {@code errors} link to the fields they concern. */
    public record FormPage(Chrome chrome, String heading, String action, String cancelHref,
            List<SchemaForm.Field> fields, List<ErrorLink> errors, String summary, String submit, String csrf) {
    }
}
