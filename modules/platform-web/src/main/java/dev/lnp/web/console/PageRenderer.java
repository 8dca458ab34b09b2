package dev.lnp.web.console;

import dev.lnp.api.internal.console.Chrome;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.pages.BoardView;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DashboardView;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.Filter;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageView;
import dev.lnp.api.internal.platform.PluginCatalog.Page;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the views plugins answer into the models of the page templates: links with the row's values put in, the
 * filters with what is asked now, sortable headings and page links that keep the rest of the query, a board's
 * "move to" choices. Every text stays text: the templates escape it.
 */
final class PageRenderer {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z0-9_]+)}");

    private final Console console;
    private final dev.lnp.api.internal.http.JsonValidation validation;

    PageRenderer(Console console, dev.lnp.api.internal.http.JsonValidation validation) {
        this.console = console;
        this.validation = validation;
    }

    void putNotice(ConsoleExchange x, String notice) {
        x.flash(notice);
    }

    String takeNotice(ConsoleExchange x) {
        return x.takeFlash().orElse(null);
    }

    void render(ConsoleExchange x, Page page, PageView view, String notice, String live,
            PageViews.ShownOnce shownOnce) {
        render(x, 200, page, view, notice, live, shownOnce, null);
    }

    /**
     * What an inline form's action refused, to show on the record's page again: the action, what was typed, the
     * errors by field and the refusal's words when no field takes them.
     */
    record Refusal(String shownOn, String action, Map<String, String> typed, Map<String, String> errors,
            String summary) {
    }

    void render(ConsoleExchange x, int status, Page page, PageView view, String notice, String live,
            PageViews.ShownOnce shownOnce, Refusal refusal) {
        var session = x.requireWorkspaceSession();
        Chrome chrome = console.pageChrome(session, view.title(), x.request().path().absolute().path());
        switch (view) {
            case ListView list -> x.render(200, "pagelist.jte", list(x, chrome, list, notice, session.csrfToken(), live,
                    shownOnce));
            case DetailView detail -> x.render(status, "pagedetail.jte", new PageViews.DetailPage(chrome, notice,
                    facts(detail.fields()),
                    detail.related().stream().map(related -> table(related, related.title())).toList(),
                    links(detail.actions(), null), session.csrfToken(), live, shownOnce,
                    inlineForms(x, detail, refusal)));
            case BoardView board -> x.render(200, "pageboard.jte", board(chrome, board, notice, session.csrfToken(), live,
                    shownOnce));
            case DashboardView home -> x.render(200, "pagedashboard.jte", DashboardRendering.page(chrome, home, notice,
                    links(home.actions(), null), session.csrfToken(), live));
            case FormView form -> throw new IllegalStateException(page.page().path() + ": forms render through form()");
        }
    }

    /** A form view with the fields as {@link SchemaForm} made them (values typed, errors next to their fields). */
    void form(ConsoleExchange x, int status, Page page, FormView form, List<SchemaForm.Field> fields,
            String summary) {
        var session = x.requireWorkspaceSession();
        List<PageViews.ErrorLink> errors = errorLinks(fields);
        String cancel = form.cancel() != null && ReturnPaths.isLocal(form.cancel()) ? form.cancel() : "/app";
        x.render(status, "pageform.jte", new PageViews.FormPage(
                console.pageChrome(session, form.title(), x.request().path().absolute().path()), form.title(), x.request().path().absolute().path(), cancel, fields, errors,
                summary, form.submitLabel(), session.csrfToken()));
    }

    /**
     * The forms of a record's page: each from its schema and values (or, for the one just refused, what was typed and
     * the errors), with its own ids so that two forms never share one.
     */
    private List<PageViews.InlineForm> inlineForms(ConsoleExchange x, DetailView detail, Refusal refusal) {
        List<PageViews.InlineForm> forms = new ArrayList<>();
        String shownOn = refusal != null ? refusal.shownOn() : x.request().path().absolute().path();
        String search = choicesSearch(shownOn);
        int n = 0;
        for (DetailView.InlineForm inline : detail.forms()) {
            n++;
            if (!ReturnPaths.isLocal(inline.action())) {
                continue;
            }
            FormView form = inline.form();
            var schemaForm = new SchemaForm(inline.action(), validation, form.schema());
            boolean refused = refusal != null && refusal.action().equals(inline.action());
            Map<String, String> typed = refused ? refusal.typed()
                    : form.values().isEmpty() ? schemaForm.defaults() : schemaForm.typedFrom(form.values());
            String prefix = "form" + n + "-";
            List<SchemaForm.Field> fields = schemaForm.fields(typed, refused ? refusal.errors() : Map.of(),
                    form.choices(), prefix, search);
            forms.add(new PageViews.InlineForm("form" + n, form.title(), inline.action(), shownOn, fields,
                    errorLinks(fields),
                    refused ? refusal.summary() : null, form.submitLabel()));
        }
        return forms;
    }

    /**
     * Where a long choice's search box asks for matching records: the page's own address, which the web layer renders
     * again as the person to find the field's choices.
     */
    static String choicesSearch(ConsoleExchange x) {
        return choicesSearch(x.request().path().absolute().path());
    }

    static String choicesSearch(String path) {
        String mount = path.startsWith("/console/") ? "/console" : "/app";
        return mount + ContributedPages.CHOICES + "?path=" + encode(path);
    }

    private static List<PageViews.ErrorLink> errorLinks(List<SchemaForm.Field> fields) {
        List<PageViews.ErrorLink> errors = new ArrayList<>();
        for (var field : fields) {
            if (field.hasError()) {
                errors.add(new PageViews.ErrorLink(field.label() + ": " + field.error(), "#" + field.id()));
            }
        }
        return errors;
    }

    private PageViews.ListPage list(ConsoleExchange x, Chrome chrome, ListView list, String notice, String csrf,
            String live, PageViews.ShownOnce shownOnce) {
        String path = x.request().path().absolute().path();
        Map<String, List<String>> query = query(x);
        List<PageViews.Filter> filters = new ArrayList<>();
        for (Filter filter : list.filters()) {
            List<String> asked = query.getOrDefault(filter.param(), List.of());
            List<PageViews.Choice> choices = filter.choices().stream()
                    .map(c -> new PageViews.Choice(c.value(), c.label(), asked.contains(c.value()))).toList();
            filters.add(new PageViews.Filter(filter.param(), filter.label(),
                    filter.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                    asked.isEmpty() ? "" : asked.get(0), choices));
        }
        // The filter form starts a new list: it keeps the sort and the page size, not the page.
        List<PageViews.Choice> kept = new ArrayList<>();
        for (String param : List.of("sort", "limit")) {
            query.getOrDefault(param, List.of()).forEach(v -> kept.add(new PageViews.Choice(param, v, true)));
        }
        int page = parsePage(query);
        Map<String, List<String>> others = new LinkedHashMap<>(query);
        others.remove("page");
        return new PageViews.ListPage(chrome, notice, links(list.actions(), null), path, filters, kept,
                table(list, list.title(), path, query), page,
                page > 1 ? href(path, others, "page", String.valueOf(page - 1)) : null,
                list.hasMore() ? href(path, others, "page", String.valueOf(page + 1)) : null, csrf, live, shownOnce,
                selection(list));
    }

    /**
     * The form that changes the ticked rows: its fields from the view's schema as it is now (its choices may be the
     * workspace's own, so it is not kept between requests), less the field the rows' checkboxes post.
     */
    private PageViews.Selection selection(ListView list) {
        ListView.Selection selection = list.selection();
        if (selection == null || list.rows().isEmpty() || !ReturnPaths.isLocal(selection.action())) {
            return null;
        }
        var form = new SchemaForm(selection.action(), validation, selection.form().schema());
        List<SchemaForm.Field> fields = form.fields(form.typedFrom(selection.form().values()), Map.of()).stream()
                .filter(f -> !f.name().equals(selection.field())).toList();
        List<String> ids = list.rows().stream().map(row -> row.path("id").asText()).toList();
        return new PageViews.Selection(selection.field(), selection.action(), selection.form().title(), ids, fields,
                selection.form().submitLabel());
    }

    private PageViews.Table table(ListView list, String caption) {
        return table(list, caption, null, Map.of());
    }

    private PageViews.Table table(ListView list, String caption, String path, Map<String, List<String>> query) {
        String sort = query.getOrDefault("sort", List.of("")).get(0);
        List<PageViews.Heading> headings = new ArrayList<>();
        for (Column column : list.columns()) {
            if (column.sortKey() == null || path == null) {
                headings.add(new PageViews.Heading(column.label(), null, null));
                continue;
            }
            boolean ascending = sort.equals(column.sortKey());
            boolean descending = sort.equals("-" + column.sortKey());
            Map<String, List<String>> others = new LinkedHashMap<>(query);
            others.remove("page");
            headings.add(new PageViews.Heading(column.label(),
                    href(path, others, "sort", ascending ? "-" + column.sortKey() : column.sortKey()),
                    ascending ? "ascending" : descending ? "descending" : null));
        }
        List<List<PageViews.Cell>> rows = new ArrayList<>();
        for (ObjectNode row : list.rows()) {
            List<PageViews.Cell> cells = new ArrayList<>();
            for (Column column : list.columns()) {
                cells.add(new PageViews.Cell(text(row.path(column.field())),
                        column.link() == null ? null : fill(column.link(), row)));
            }
            rows.add(cells);
        }
        return new PageViews.Table(caption, headings, rows, list.emptyText());
    }

    private PageViews.BoardPage board(Chrome chrome, BoardView board, String notice, String csrf, String live,
            PageViews.ShownOnce shownOnce) {
        List<PageViews.Lane> lanes = new ArrayList<>();
        for (BoardView.Lane lane : board.lanes()) {
            List<PageViews.Card> cards = new ArrayList<>();
            for (BoardView.Card card : board.cards()) {
                if (!card.lane().equals(lane.key())) {
                    continue;
                }
                List<PageViews.Choice> moveTo = board.lanes().stream().filter(l -> !l.key().equals(lane.key()))
                        .map(l -> new PageViews.Choice(l.key(), l.label(), false)).toList();
                cards.add(new PageViews.Card(card.id(), card.title(), card.subtitle(), local(card.link()),
                        local(card.move()), moveTo));
            }
            lanes.add(new PageViews.Lane(lane.key(), lane.label(), lane.summary(), cards));
        }
        return new PageViews.BoardPage(chrome, notice, board.field(), lanes, links(board.actions(), null), csrf, live,
                shownOnce);
    }

    private static List<PageViews.Link> links(List<Link> links, ObjectNode row) {
        return links.stream().map(l -> new PageViews.Link(l.label(), row == null ? l.href() : fill(l.href(), row),
                l.post(), l.confirm())).toList();
    }

    /** The record's fields as the page shows them; copyable ones get the id their Copy button names. */
    private static List<PageViews.Fact> facts(List<DetailView.Field> fields) {
        List<PageViews.Fact> facts = new ArrayList<>();
        int copyable = 0;
        for (DetailView.Field f : fields) {
            String value = f.value() == null ? "—"
                    : text(com.fasterxml.jackson.databind.node.TextNode.valueOf(f.value()));
            facts.add(new PageViews.Fact(f.label(), value, f.copyable() && f.value() != null
                    ? "copy-" + ++copyable : null));
        }
        return facts;
    }

    private static String local(String href) {
        return href == null || !ReturnPaths.isLocal(href) ? null : href;
    }

    /**
     * A row's value as a cell shows it: booleans as yes/no, arrays joined by commas, missing and null values as a
     * dash, an ISO 8601 time with an offset like every time in the console.
     */
    static String text(JsonNode value) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return "—";
        }
        if (value.isBoolean()) {
            return value.booleanValue() ? "yes" : "no";
        }
        if (value.isArray()) {
            List<String> parts = new ArrayList<>();
            value.forEach(v -> parts.add(v.isValueNode() ? v.asText() : v.toString()));
            return parts.isEmpty() ? "—" : String.join(", ", parts);
        }
        if (value.isTextual() && TIMESTAMP.matcher(value.textValue()).matches()) {
            try {
                return Views.time(java.time.OffsetDateTime.parse(value.textValue()).toInstant());
            } catch (java.time.format.DateTimeParseException notATime) {
                return value.textValue();
            }
        }
        return value.isValueNode() ? value.asText() : value.toString();
    }

    private static final Pattern TIMESTAMP =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})");

    /** {@code /app/x/{id}} with the row's {@code id}, each value encoded as a path segment. */
    static String fill(String template, ObjectNode row) {
        Matcher m = PLACEHOLDER.matcher(template);
        // A template that is one placeholder alone names a field holding a whole page address (a record of another
        // plugin, e.g. a contact's chat conversation): taken as it is when it is a local path, else no link.
        if (m.matches()) {
            return local(row.path(m.group(1)).asText(""));
        }
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = row.path(m.group(1)).asText("");
            m.appendReplacement(out, Matcher.quoteReplacement(
                    URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20")));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The query asked for, by name in alphabetical order: the same list always has the same address. */
    private static Map<String, List<String>> query(ConsoleExchange x) {
        Map<String, List<String>> query = new java.util.TreeMap<>();
        var parameters = x.request().query();
        for (String name : parameters.names()) {
            List<String> values = parameters.all(name, List::of).stream().filter(v -> !v.isBlank()).toList();
            if (!values.isEmpty()) {
                query.put(name, values);
            }
        }
        return query;
    }

    private static int parsePage(Map<String, List<String>> query) {
        try {
            return Math.max(1, Integer.parseInt(query.getOrDefault("page", List.of("1")).get(0)));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** {@code path} with the query {@code others} and {@code name=value}, in a stable order. */
    static String href(String path, Map<String, List<String>> others, String name, String value) {
        StringBuilder href = new StringBuilder(path);
        char separator = '?';
        for (var entry : others.entrySet()) {
            if (entry.getKey().equals(name)) {
                continue;
            }
            for (String v : entry.getValue()) {
                href.append(separator).append(encode(entry.getKey())).append('=').append(encode(v));
                separator = '&';
            }
        }
        return href.append(separator).append(encode(name)).append('=').append(encode(value)).toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
