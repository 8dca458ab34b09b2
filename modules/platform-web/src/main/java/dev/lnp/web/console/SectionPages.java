package dev.lnp.web.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.internal.http.JsonValidation;
import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.console.ActionResult;
import dev.lnp.api.console.ConsoleColumn;
import dev.lnp.api.console.ConsoleRole;
import dev.lnp.api.console.ConsoleSection;
import dev.lnp.api.console.RowAction;
import dev.lnp.api.console.RowPage;
import dev.lnp.api.console.SectionContext;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.internal.console.Chrome;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.NavItem;
import dev.lnp.api.internal.console.NavSection;
import dev.lnp.api.internal.db.Transactions;
import dev.lnp.api.internal.platform.PluginCatalog.Section;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pages of console sections contributed by plugins ({@link ConsoleSection}): list, detail, generated create and
 * edit forms, row actions with an optional confirmation, secrets shown once. Every page checks the session, the
 * plugin being switched on for the workspace, and the role; every callback runs in the workspace's transaction;
 * every change is recorded in the activity log as {@code <plugin>.<section>.<created|updated|action id>}.
 */
final class SectionPages {

    private static final String ROW_ID = "[A-Za-z0-9_-]{1,100}";

    /** A section, row or parent that is not there for this person: answered 404 with a readable page. */
    static final class NotFound extends RuntimeException {
        final String backHref;

        NotFound(String message, String backHref) {
            super(message, null, false, false);
            this.backHref = backHref;
        }
    }

    private final Console console;
    private final Transactions transactions;
    private final JsonValidation validation;
    private final Map<String, SchemaForm> forms = new ConcurrentHashMap<>();

    SectionPages(Console console, Transactions transactions, JsonValidation validation) {
        this.validation = validation;
        this.console = console;
        this.transactions = transactions;
    }

    /** The navigation groups of the sections this session may see, in registration order. */
    List<NavSection> navigation(ConsoleSession session, String currentHref) {
        List<Section> all = console.plugins().consoleSections();
        if (all.isEmpty()) {
            return List.of();
        }
        List<String> disabled = console.workspaceSettings().disabledModules(session.workspaceId());
        Map<String, List<NavItem>> groups = new LinkedHashMap<>();
        for (Section registered : all) {
            ConsoleSection section = registered.section();
            if (section.parent().isPresent() || disabled.contains(registered.pluginId())
                    || !section.minRole().allows(session.role())) {
                continue;
            }
            String href = base(registered.pluginId(), section.id());
            groups.computeIfAbsent(section.group(), g -> new ArrayList<>())
                    .add(new NavItem(section.label(), href, currentHref != null
                            && (currentHref.equals(href) || currentHref.startsWith(href + "/"))));
        }
        List<NavSection> nav = new ArrayList<>();
        groups.forEach((title, items) -> nav.add(new NavSection(title, items)));
        return nav;
    }

    static String base(String pluginId, String sectionId) {
        return "/console/m/" + pluginId + "/" + sectionId;
    }

    /** One request to a section: who, which section, the parent row (for a child section). */
    private record Target(ConsoleSession session, String pluginId, ConsoleSection section,
            Section parentSection, String parentId, String parentLabel) {
        String base() {
            return SectionPages.base(pluginId, section.id());
        }

        /** {@code ?parent=…} (or {@code &parent=…}) for a child section's links, empty otherwise. */
        String parentQuery(char first) {
            return parentId == null ? "" : first + "parent=" + URLEncoder.encode(parentId, StandardCharsets.UTF_8);
        }

        String listHref() {
            return base() + parentQuery('?');
        }

        String rowHref(String rowId) {
            return base() + "/" + rowId + parentQuery('?');
        }
    }

    private Target target(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        String pluginId = x.pathParam("plugin");
        Section registered = console.plugins().consoleSection(pluginId, x.pathParam("section"))
                .orElseThrow(() -> new NotFound("There is no console page at this address.", "/console"));
        if (console.workspaceSettings().disabledModules(session.workspaceId()).contains(pluginId)) {
            throw new NotFound("The module " + pluginId + " is switched off for this workspace. An owner or admin "
                    + "can switch it on under Modules.", "/console");
        }
        ConsoleSection section = registered.section();
        requireRole(section.minRole(), session);
        if (section.parent().isEmpty()) {
            return new Target(session, pluginId, section, null, null, null);
        }
        Section parent = console.plugins().consoleSection(pluginId, section.parent().get()).orElseThrow();
        String parentId = x.query("parent");
        String parentList = base(pluginId, parent.section().id());
        if (parentId == null || !parentId.matches(ROW_ID)) {
            throw new NotFound("Open " + section.label() + " from its " + parent.section().itemName() + ".", parentList);
        }
        var probe = new Target(session, pluginId, parent.section(), null, null, null);
        ObjectNode parentRow = inWorkspace(probe, null, tx -> parent.section().finder().orElseThrow()
                .find(context(probe, tx, null), parentId)).orElseThrow(() -> new NotFound(
                "This " + parent.section().itemName() + " does not exist in this workspace.", parentList));
        return new Target(session, pluginId, section, parent, parentId, rowLabel(parent.section(), parentRow, parentId));
    }

    private static void requireRole(ConsoleRole role, ConsoleSession session) {
        if (!role.allows(session.role())) {
            throw new ConsoleExchange.Forbidden("Your role does not allow this (it needs " + role.id() + " or above).");
        }
    }

    /** The first column's value of a row, or its id: how the row is named in headings and the activity log. */
    private static String rowLabel(ConsoleSection section, ObjectNode row, String id) {
        String first = text(row.path(section.columns().get(0).field()));
        return first.equals("—") || first.isBlank() ? id : first;
    }

    static String text(JsonNode value) {
        return PageRenderer.text(value);
    }

    static String oldText(JsonNode value) {
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

    /** An ISO 8601 time with an offset, as plugins' rows carry them: shown like every time in the console. */
    private static final java.util.regex.Pattern TIMESTAMP =
            java.util.regex.Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})");

    private record Context(UUID workspaceId, UUID userId, String email, ConsoleRole role, PageRequest page,
            Optional<String> parentId, WorkspaceTx tx) implements SectionContext {
    }

    private static SectionContext context(Target t, WorkspaceTx tx, PageRequest page) {
        return new Context(t.session().workspaceId(), t.session().userId(), t.session().email(),
                ConsoleRole.valueOf(t.session().role().toUpperCase(java.util.Locale.ROOT)),
                page == null ? new PageRequest(1, t.section().pageSize()) : page, Optional.ofNullable(t.parentId()), tx);
    }

    private <R> R inWorkspace(Target t, PageRequest page, PluginCode.Work<R> work) {
        return PluginCode.inWorkspace(transactions, t.session().workspaceId(), work);
    }

    private ObjectNode findRow(Target t, String rowId) {
        if (rowId == null || !rowId.matches(ROW_ID) || t.section().finder().isEmpty()) {
            throw new NotFound("This " + t.section().itemName() + " does not exist in this workspace.", t.listHref());
        }
        return inWorkspace(t, null, tx -> t.section().finder().get().find(context(t, tx, null), rowId))
                .orElseThrow(() -> new NotFound("This " + t.section().itemName() + " does not exist in this workspace.",
                        t.listHref()));
    }

    private SchemaForm form(Target t, String which, JsonNode schema) {
        return forms.computeIfAbsent(t.pluginId() + "/" + t.section().id() + "/" + which,
                key -> new SchemaForm(key, validation, schema));
    }

    // ---- list

    void list(ConsoleExchange x) {
        Target t = target(x);
        int page = 1;
        String asked = x.query("page");
        if (asked != null) {
            try {
                page = Integer.parseInt(asked);
            } catch (NumberFormatException e) {
                page = 0;
            }
            if (page < 1) {
                x.render(400, "notice.jte", console.notice(x, "No such page",
                        "Page: give a whole number from 1, as the page links do.", t.listHref(), "First page"));
                return;
            }
        }
        PageRequest request = new PageRequest(page, t.section().pageSize());
        RowPage rows = inWorkspace(t, request, tx -> t.section().lister().list(context(t, tx, request)));
        List<SectionViews.Row> shown = new ArrayList<>();
        for (ObjectNode row : rows.rows()) {
            String id = row.path("id").asText("");
            List<SectionViews.Cell> cells = new ArrayList<>();
            for (ConsoleColumn column : t.section().columns()) {
                cells.add(new SectionViews.Cell(text(row.path(column.field())),
                        column.linksToDetail() && id.matches(ROW_ID) ? t.rowHref(id) : null));
            }
            shown.add(new SectionViews.Row(id, cells));
        }
        long pages = Math.max(1, (rows.total() + request.limit() - 1) / request.limit());
        String pageBase = t.base() + "?" + (t.parentId() == null ? "" : t.parentQuery(' ').strip() + "&") + "page=";
        x.render(200, "section.jte", new SectionViews.ListPage(chrome(x, t, t.section().label()),
                header(t), t.section().description(), t.section().columns().stream().map(ConsoleColumn::label).toList(),
                shown, t.section().emptyText(), page, pages, rows.total(),
                page > 1 ? pageBase + (page - 1) : null, page < pages ? pageBase + (page + 1) : null,
                t.section().creator().isPresent() && t.section().changeRole().allows(t.session().role())
                        ? t.base() + "/new" + t.parentQuery('?') : null,
                "New " + t.section().itemName()));
    }

    private Chrome chrome(ConsoleExchange x, Target t, String title) {
        String navHref = t.parentSection() == null ? t.base() : base(t.pluginId(), t.parentSection().section().id());
        return console.chrome(x.session().orElse(null), title, navHref);
    }

    /** Breadcrumbs: the parent's list and row for a child section, the section's list otherwise. */
    private SectionViews.Header header(Target t) {
        List<SectionViews.Crumb> crumbs = new ArrayList<>();
        if (t.parentSection() != null) {
            String parentBase = base(t.pluginId(), t.parentSection().section().id());
            crumbs.add(new SectionViews.Crumb(t.parentSection().section().label(), parentBase));
            crumbs.add(new SectionViews.Crumb(t.parentLabel(), parentBase + "/" + t.parentId()));
        }
        crumbs.add(new SectionViews.Crumb(t.section().label(), t.listHref()));
        return new SectionViews.Header(crumbs);
    }

    // ---- detail

    void show(ConsoleExchange x) {
        Target t = target(x);
        String rowId = x.pathParam("row");
        ObjectNode row = findRow(t, rowId);
        renderRow(x, t, rowId, row, doneMessage(t, x.query("done")));
    }

    private String doneMessage(Target t, String done) {
        if (done == null) {
            return null;
        }
        return switch (done) {
            case "created" -> t.section().createdMessage();
            case "saved" -> t.section().savedMessage();
            default -> t.section().action(done).map(RowAction::doneMessage).orElse(null);
        };
    }

    private void renderRow(ConsoleExchange x, Target t, String rowId, ObjectNode row, String notice) {
        List<SectionViews.Fact> facts = new ArrayList<>();
        for (ConsoleColumn field : t.section().detailFields()) {
            facts.add(new SectionViews.Fact(field.label(), text(row.path(field.field()))));
        }
        List<SectionViews.Action> actions = new ArrayList<>();
        for (RowAction action : t.section().actions()) {
            ConsoleRole role = action.minRole() == null ? t.section().changeRole() : action.minRole();
            if (action.appliesTo(row) && role.allows(t.session().role())) {
                actions.add(new SectionViews.Action(action.label(), actionHref(t, rowId, action), action.confirmText() != null,
                        action.dangerous()));
            }
        }
        List<SectionViews.Crumb> children = new ArrayList<>();
        for (Section child : console.plugins().consoleSections()) {
            if (child.pluginId().equals(t.pluginId()) && child.section().parent().filter(t.section().id()::equals).isPresent()
                    && child.section().minRole().allows(t.session().role())) {
                children.add(new SectionViews.Crumb(child.section().label(), base(t.pluginId(), child.section().id())
                        + "?parent=" + URLEncoder.encode(rowId, StandardCharsets.UTF_8)));
            }
        }
        String label = rowLabel(t.section(), row, rowId);
        x.render(200, "sectionrow.jte", new SectionViews.RowPage(chrome(x, t, label), header(t), label, facts,
                actions, children, notice,
                t.section().editor().isPresent() && t.section().changeRole().allows(t.session().role())
                        ? t.base() + "/" + rowId + "/edit" + t.parentQuery('?') : null,
                "Edit " + t.section().itemName(), x.session().orElseThrow().csrfToken()));
    }

    private static String actionHref(Target t, String rowId, RowAction action) {
        return t.base() + "/" + rowId + "/actions/" + action.id() + t.parentQuery('?');
    }

    // ---- create and edit

    void createForm(ConsoleExchange x) {
        Target t = target(x);
        SchemaForm form = createForm(t);
        renderForm(x, t, 200, form, form.defaults(), Map.of(), null, false, null);
    }

    private SchemaForm createForm(Target t) {
        requireRole(t.section().changeRole(), t.session());
        JsonNode schema = t.section().createSchema()
                .orElseThrow(() -> new NotFound("This section has no create form.", t.listHref()));
        return form(t, "create", schema);
    }

    void create(ConsoleExchange x) {
        Target t = target(x);
        SchemaForm form = createForm(t);
        x.checkPost(t.session().csrfToken());
        var parsed = form.parse(x::form);
        if (!parsed.valid()) {
            renderForm(x, t, 400, form, parsed.typed(), parsed.errors(), null, false, null);
            return;
        }
        ActionResult result;
        try {
            result = inWorkspace(t, null, tx -> t.section().creator().orElseThrow().create(context(t, tx, null),
                    parsed.values()));
        } catch (ApiProblem problem) {
            renderProblem(x, t, form, parsed, problem, false, null);
            return;
        }
        String target = result instanceof ActionResult.ShowRow show ? show.id()
                : result instanceof ActionResult.Secret secret ? secret.rowId() : null;
        console.activity().record(t.session(), activityName(t, "created"), target, t.parentId() == null ? null
                : "in " + t.parentSection().section().itemName() + " " + t.parentId());
        answer(x, t, result, null, "created");
    }

    void editForm(ConsoleExchange x) {
        Target t = target(x);
        String rowId = x.pathParam("row");
        SchemaForm form = editForm(t);
        ObjectNode row = findRow(t, rowId);
        renderForm(x, t, 200, form, form.typedFrom(row), Map.of(), null, true, rowId);
    }

    private SchemaForm editForm(Target t) {
        requireRole(t.section().changeRole(), t.session());
        JsonNode schema = t.section().editSchema()
                .orElseThrow(() -> new NotFound("This section has no edit form.", t.listHref()));
        return form(t, "edit", schema);
    }

    void update(ConsoleExchange x) {
        Target t = target(x);
        String rowId = x.pathParam("row");
        SchemaForm form = editForm(t);
        x.checkPost(t.session().csrfToken());
        findRow(t, rowId);
        var parsed = form.parse(x::form);
        if (!parsed.valid()) {
            renderForm(x, t, 400, form, parsed.typed(), parsed.errors(), null, true, rowId);
            return;
        }
        ActionResult result;
        try {
            result = inWorkspace(t, null, tx -> t.section().editor().orElseThrow().update(context(t, tx, null), rowId,
                    parsed.values()));
        } catch (ApiProblem problem) {
            renderProblem(x, t, form, parsed, problem, true, rowId);
            return;
        }
        console.activity().record(t.session(), activityName(t, "updated"), rowId, null);
        answer(x, t, result, rowId, "saved");
    }

    /** Field errors next to their fields; any other problem above the form, with its status. */
    private void renderProblem(ConsoleExchange x, Target t, SchemaForm form, SchemaForm.Parsed parsed,
            ApiProblem problem, boolean editing, String rowId) {
        Map<String, String> errors = new LinkedHashMap<>();
        List<String> general = new ArrayList<>();
        for (FieldError error : problem.errors()) {
            String field = SchemaForm.fieldOf(error.pointer());
            if (!field.isEmpty() && form.fields(Map.of(), Map.of()).stream().anyMatch(f -> f.name().equals(field))) {
                errors.putIfAbsent(field, error.message());
            } else {
                general.add(error.message());
            }
        }
        String summary = problem.errors().isEmpty() || !general.isEmpty() ? problem.detail() : null;
        int status = problem.status() >= 400 && problem.status() < 500 ? problem.status() : 400;
        renderForm(x, t, status, form, parsed.typed(), errors, summary, editing, rowId);
    }

    private void renderForm(ConsoleExchange x, Target t, int status, SchemaForm form, Map<String, String> typed,
            Map<String, String> errors, String summary, boolean editing, String rowId) {
        var fields = form.fields(typed, errors);
        List<PageViews.ErrorLink> summaryLinks = new ArrayList<>();
        for (var field : fields) {
            if (field.hasError()) {
                summaryLinks.add(new PageViews.ErrorLink(field.label() + ": " + field.error(), "#" + field.id()));
            }
        }
        String heading = (editing ? "Edit " : "New ") + t.section().itemName();
        String action = editing ? t.base() + "/" + rowId + "/edit" + t.parentQuery('?') : t.base() + "/new" + t.parentQuery('?');
        String cancel = editing ? t.rowHref(rowId) : t.listHref();
        x.render(status, "pageform.jte", new PageViews.FormPage(chrome(x, t, heading), heading,
                action, cancel, fields, summaryLinks, summary, editing ? "Save" : "Create " + t.section().itemName(),
                x.session().orElseThrow().csrfToken()));
    }

    // ---- actions

    private RowAction action(Target t, String rowId, ObjectNode row, String actionId) {
        RowAction action = t.section().action(actionId == null ? "" : actionId)
                .orElseThrow(() -> new NotFound("There is no such action.", t.rowHref(rowId)));
        requireRole(action.minRole() == null ? t.section().changeRole() : action.minRole(), t.session());
        if (!action.appliesTo(row)) {
            throw new ConflictNotice("“" + action.label() + "” does not apply to this " + t.section().itemName()
                    + " any more.", t.rowHref(rowId));
        }
        return action;
    }

    /** An action that no longer applies to the row (e.g. revoking a revoked trial): a 409 page. */
    static final class ConflictNotice extends RuntimeException {
        final String backHref;

        ConflictNotice(String message, String backHref) {
            super(message, null, false, false);
            this.backHref = backHref;
        }
    }

    void confirmAction(ConsoleExchange x) {
        Target t = target(x);
        String rowId = x.pathParam("row");
        ObjectNode row = findRow(t, rowId);
        RowAction action;
        try {
            action = action(t, rowId, row, x.pathParam("action"));
        } catch (ConflictNotice conflict) {
            x.render(409, "notice.jte", console.notice(x, "Cannot do this", conflict.getMessage(), conflict.backHref,
                    "Back"));
            return;
        }
        String label = rowLabel(t.section(), row, rowId);
        x.render(200, "sectionconfirm.jte", new SectionViews.ConfirmPage(chrome(x, t, action.label()), header(t),
                action.label() + ": " + label, action.confirmText() == null ? "" : action.confirmText(),
                actionHref(t, rowId, action), t.rowHref(rowId), action.label(), action.dangerous(),
                x.session().orElseThrow().csrfToken()));
    }

    void runAction(ConsoleExchange x) {
        Target t = target(x);
        String rowId = x.pathParam("row");
        x.checkPost(t.session().csrfToken());
        ObjectNode row = findRow(t, rowId);
        RowAction action;
        try {
            action = action(t, rowId, row, x.pathParam("action"));
        } catch (ConflictNotice conflict) {
            x.render(409, "notice.jte", console.notice(x, "Cannot do this", conflict.getMessage(), conflict.backHref,
                    "Back"));
            return;
        }
        if (action.confirmText() != null && !"yes".equals(x.form("confirm"))) {
            // Sent without the confirmation page's button: ask first.
            x.redirect(actionHref(t, rowId, action));
            return;
        }
        ActionResult result;
        try {
            result = inWorkspace(t, null, tx -> action.handler().run(context(t, tx, null), rowId));
        } catch (ApiProblem problem) {
            int status = problem.status() >= 400 && problem.status() < 500 ? problem.status() : 400;
            String text = problem.errors().isEmpty() ? problem.detail()
                    : problem.detail() + " " + String.join(" ", problem.errors().stream().map(FieldError::message).toList());
            x.render(status, "notice.jte", console.notice(x, action.label() + " did not happen", text,
                    t.rowHref(rowId), "Back to the " + t.section().itemName()));
            return;
        }
        console.activity().record(t.session(), activityName(t, action.id()), rowId, rowLabel(t.section(), row, rowId));
        answer(x, t, result, rowId, action.id());
    }

    private static String activityName(Target t, String what) {
        return t.pluginId() + "." + t.section().id() + "." + what;
    }

    /** Shows what a callback answered: the row (with the done message), the list, or a secret once. */
    private void answer(ConsoleExchange x, Target t, ActionResult result, String rowId, String done) {
        switch (result) {
            case ActionResult.Secret secret -> {
                if (!secret.rowId().matches(ROW_ID)) {
                    throw new IllegalStateException(t.pluginId() + ": secret for a row id that is not an address: "
                            + secret.rowId());
                }
                x.render(201, "sectionsecret.jte", new SectionViews.SecretPage(chrome(x, t, secret.label()), header(t),
                        secret.label(), secret.value(), secret.note(), t.rowHref(secret.rowId())));
            }
            case ActionResult.ShowRow show -> {
                if (!show.id().matches(ROW_ID)) {
                    throw new IllegalStateException(t.pluginId() + ": row id is not an address: " + show.id());
                }
                x.redirect(withDone(t.rowHref(show.id()), done));
            }
            case ActionResult.Removed removed -> x.redirect(t.listHref());
            case ActionResult.Notice notice -> {
                ObjectNode row = rowId == null ? null : inWorkspace(t, null, tx -> t.section().finder().orElseThrow()
                        .find(context(t, tx, null), rowId)).orElse(null);
                if (row != null) {
                    renderRow(x, t, rowId, row, notice.message());
                } else {
                    x.render(200, "notice.jte", console.notice(x, t.section().label(), notice.message(), t.listHref(),
                            "Back to " + t.section().label()));
                }
            }
            case ActionResult.Done d -> x.redirect(rowId == null ? t.listHref() : withDone(t.rowHref(rowId), done));
        }
    }

    private static String withDone(String href, String done) {
        return href + (href.contains("?") ? "&" : "?") + "done=" + done;
    }
}
