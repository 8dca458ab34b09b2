package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsolePages;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.NavItem;
import dev.lnp.api.internal.console.NavSection;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import dev.lnp.api.internal.db.Transactions;
import dev.lnp.api.internal.http.JsonValidation;
import dev.lnp.api.internal.platform.PluginCatalog.Page;
import io.helidon.webserver.http.HttpRules;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The pages plugins contribute through the page API ({@link PageRoute}): each view and action is a route of the
 * application ({@code /app}) or the console ({@code /console}), wrapped like every console page (session, refusals
 * and error pages). Every request checks the module is switched on for the workspace and the person's role grants
 * the page's scope, runs the plugin's handler in the workspace's transaction, and renders what it answered in the
 * shell; {@link PageRenderer} turns the views into the templates' models.
 */
final class ContributedPages {

    private final Console console;
    private final Transactions transactions;
    private final JsonValidation validation;
    private final PageRenderer renderer;
    private final Map<String, SchemaForm> forms = new ConcurrentHashMap<>();
    private final LiveEvents live;

    /** Under each mount: the event stream of an open page that follows events ({@link PageRoute#liveOn}). */
    static final String LIVE = "/_live";
    /** Under each mount: the choices of a long choice field matching what is typed in its search box. */
    static final String CHOICES = "/_choices";
    /** The hidden field of an inline form naming the record's page it was on, to show a refusal there. */
    static final String SHOWN_ON = "_shown_on";
    /** Records a long choice's search box offers at once. */
    private static final int CHOICES_SHOWN = 50;
    private static final Duration LIVE_FOR = Duration.ofMinutes(10);
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(25);

    ContributedPages(Console console, Transactions transactions, JsonValidation validation, LiveEvents live) {
        this.console = console;
        this.transactions = transactions;
        this.validation = validation;
        this.renderer = new PageRenderer(console, validation);
        this.live = live;
    }

    /**
     * The address of the event stream of the view at {@code path}, when that view follows events. {@code since} is
     * the outbox's position when the view began reading: what happened up to there is on the page already, and the
     * stream leaves it out (the person's own change just before, say, would otherwise replace the page they are
     * reading a second later). A position, not a time: the nodes' and the database's clocks may differ.
     */
    static String liveUrl(Page page, String path, long since) {
        if (page.page().liveOn().isEmpty()) {
            return null;
        }
        String mount = page.page().administration() ? "/console" : "/app";
        return mount + LIVE + "?path=" + java.net.URLEncoder.encode(path, java.nio.charset.StandardCharsets.UTF_8)
                + "&since=" + since;
    }

    /**
     * The event stream of an open page: {@code changed} each time one of the events the page follows happens in
     * the workspace, a comment every 25 s so that proxies keep it open, closed after 10 minutes (the browser opens
     * it again). The person must be allowed the page itself.
     */
    private void live(ConsoleExchange x) {
        String path = x.query("path");
        Page page = console.plugins().pages().stream()
                .filter(p -> p.page().renderer() != null && !p.page().liveOn().isEmpty() && path != null
                        && matches(p.page().path(), path))
                .findFirst()
                .orElseThrow(() -> new ConsolePages.NotFound("No page at this address follows events.", "/app", "Back"));
        var session = admit(x, page);
        BlockingQueue<Boolean> signal = new ArrayBlockingQueue<>(1);
        var watcher = new LiveEvents.Watcher(session.workspaceId(), page.page().liveOn(), since(x),
                () -> signal.offer(true));
        try (AutoCloseable watching = live.watch(watcher); OutputStream out = x.stream("text/event-stream")) {
            write(out, "retry: 5000\n\n");
            long until = System.nanoTime() + LIVE_FOR.toNanos();
            while (System.nanoTime() < until) {
                Boolean changed = signal.poll(KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS);
                write(out, changed != null ? "event: changed\ndata: {}\n\n" : ": still here\n\n");
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } catch (Exception pageClosed) {
            // The browser went away (the write failed): nothing to answer.
        }
    }

    /** The outbox position the page began reading at ({@code since}); a missing or bad value is "now". */
    private long since(ConsoleExchange x) {
        try {
            String since = x.query("since");
            return since == null ? live.position() : Long.parseLong(since);
        } catch (NumberFormatException notANumber) {
            return live.position();
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Whether {@code path} is an address of the page template {@code template} ({@code {name}}: one segment). */
    static boolean matches(String template, String path) {
        String[] want = template.split("/", -1);
        String[] got = path.split("/", -1);
        if (want.length != got.length) {
            return false;
        }
        for (int i = 0; i < want.length; i++) {
            boolean parameter = want[i].startsWith("{") && want[i].endsWith("}");
            if (parameter ? got[i].isEmpty() : !want[i].equals(got[i])) {
                return false;
            }
        }
        return true;
    }

    /** Routes every page whose path starts with {@code mount} ({@code /app} or {@code /console}), in their order. */
    void routing(HttpRules rules, String mount) {
        rules.get(LIVE, console.page(this::live));
        rules.get(CHOICES, console.page(this::choices));
        for (Page page : console.plugins().pages()) {
            if (!page.page().path().startsWith(mount + "/")) {
                continue;
            }
            String path = page.page().path().substring(mount.length());
            if (page.page().action() != null) {
                rules.post(path, console.page(x -> act(x, page)));
            } else {
                rules.get(path, console.page(x -> view(x, page)));
            }
        }
    }

    /** The navigation entries of the pages under {@code mount} this session may open, grouped, in order. */
    List<NavSection> navigation(ConsoleSession session, String mount, String currentHref) {
        if (session == null || !session.hasWorkspace() || mount.equals("/console")
                && !ConsoleAuthorization.allows(session, ConsoleAuthorization.Permission.MANAGE_MODULES)) {
            return List.of();
        }
        List<String> disabled = console.workspaceSettings().disabledModules(session.workspaceId());
        Set<String> granted = scopes(session);
        List<PageRoute> shown = new ArrayList<>();
        for (Page registered : console.plugins().pages()) {
            PageRoute page = registered.page();
            if (page.navLabel() == null || !page.path().startsWith(mount + "/")
                    || disabled.contains(registered.pluginId()) || !granted.contains(page.scope())
                    || !roleAllows(page, session.role())) {
                continue;
            }
            shown.add(page);
        }
        // A module's home (/app/crm) is above its lists (/app/crm/deals): the entry nearest the page is current.
        String current = shown.stream().map(PageRoute::path)
                .filter(path -> currentHref != null && (currentHref.equals(path) || currentHref.startsWith(path + "/")))
                .max(java.util.Comparator.comparingInt(String::length)).orElse(null);
        Map<String, List<NavItem>> groups = new LinkedHashMap<>();
        for (PageRoute page : shown) {
            groups.computeIfAbsent(page.navGroup(), g -> new ArrayList<>())
                    .add(new NavItem(page.navLabel(), page.path(), page.path().equals(current)));
        }
        List<NavSection> nav = new ArrayList<>();
        groups.forEach((title, items) -> nav.add(new NavSection(title, homeFirst(mount, title, items))));
        return nav;
    }

    /**
     * A heading's home ({@code /app/support} for "Support") leads it, whichever plugin was loaded first: several
     * plugins may add entries under one heading (the chat inbox and the tickets under Support), in their load order.
     */
    static List<NavItem> homeFirst(String mount, String heading, List<NavItem> items) {
        String home = mount + "/" + heading.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        List<NavItem> ordered = new ArrayList<>(items.stream().filter(i -> i.href().equals(home)).toList());
        items.stream().filter(i -> !i.href().equals(home)).forEach(ordered::add);
        return ordered;
    }

    /** Whether {@code role} is the page's {@link PageRoute#role} or a stronger one (any role, when it names none). */
    static boolean roleAllows(PageRoute page, String role) {
        return page.role() == null || PageRoute.ROLES.indexOf(role) >= PageRoute.ROLES.indexOf(page.role());
    }

    private Set<String> scopes(ConsoleSession session) {
        return console.plugins().scopesOfRole(session.role());
    }

    /** The session, after checking the module is on here and the role grants the page's scope. */
    private ConsoleSession admit(ConsoleExchange x, Page page) {
        var session = x.requireWorkspaceSession();
        if (console.workspaceSettings().disabledModules(session.workspaceId()).contains(page.pluginId())) {
            throw new ConsolePages.NotFound("The module " + page.pluginId() + " is switched off for this workspace. An owner"
                    + " or admin can switch it on under Modules.", home(page), "Back");
        }
        if (page.page().administration() && !ConsoleAuthorization.allows(session,
                ConsoleAuthorization.Permission.MANAGE_MODULES)) {
            throw new ConsoleExchange.Forbidden("Only owners and admins reach the administration's pages.");
        }
        if (!roleAllows(page.page(), session.role())) {
            throw new ConsoleExchange.Forbidden("Your role does not allow this (it needs " + page.page().role()
                    + " or above).");
        }
        if (!scopes(session).contains(page.page().scope())) {
            throw new ConsoleExchange.Forbidden("Your role does not allow this (it needs " + page.page().scope() + ").");
        }
        return session;
    }

    private static String home(Page page) {
        return page.page().administration() ? "/console" : "/app";
    }

    private void view(ConsoleExchange x, Page page) {
        var session = admit(x, page);
        long reading = page.page().liveOn().isEmpty() ? 0 : live.position();
        PageView view = inWorkspace(session, tx -> page.page().renderer().render(new PersonCall(console, x, session, tx)));
        String notice = renderer.takeNotice(x);
        if (view instanceof FormView form) {
            SchemaForm schemaForm = form(page, form);
            renderer.form(x, 200, page, form, schemaForm.fields(form.values().isEmpty() ? schemaForm.defaults()
                    : schemaForm.typedFrom(form.values()), Map.of(), form.choices(), "f-",
                    PageRenderer.choicesSearch(x)), null);
        } else {
            String path = x.request().path().absolute().path();
            renderer.render(x, page, view, notice, liveUrl(page, path, reading), shownOnce(x, path));
        }
    }

    private void act(ConsoleExchange x, Page page) {
        var session = admit(x, page);
        x.checkPost(session.csrfToken());
        SchemaForm schemaForm = forms.computeIfAbsent(page.page().path(), p -> new SchemaForm(p, validation, page.page().form()));
        var parsed = schemaForm.parse(x::form, x::formValues);
        if (!parsed.valid()) {
            showFormAgain(x, page, session, 400, schemaForm, parsed.typed(), parsed.errors(), null);
            return;
        }
        PageOutcome outcome;
        try {
            outcome = inWorkspace(session, tx -> page.page().action().act(new PersonCall(console, x, session, tx), parsed.values()));
        } catch (ApiProblem problem) {
            Map<String, String> errors = new LinkedHashMap<>();
            List<String> general = new ArrayList<>();
            for (FieldError error : problem.errors()) {
                String field = SchemaForm.fieldOf(error.pointer());
                if (!field.isEmpty() && page.page().form().path("properties").has(field)) {
                    errors.putIfAbsent(field, error.message());
                } else {
                    general.add(error.message());
                }
            }
            String summary = errors.isEmpty() || !general.isEmpty() ? problem.detail() : null;
            int status = problem.status() >= 400 && problem.status() < 500 ? problem.status() : 400;
            showFormAgain(x, page, session, status, schemaForm, parsed.typed(), errors, summary);
            return;
        }
        if (outcome.activity() != null) {
            var done = outcome.activity();
            console.activity().record(session, done.action(), done.target(), done.detail());
        } else {
            console.activity().record(session, page.pluginId() + ".page", page.page().path(),
                    x.request().path().absolute().path());
        }
        renderer.putNotice(x, outcome.notice());
        if (outcome.shownOnce() != null) {
            var once = outcome.shownOnce();
            ObjectNode sealed = dev.lnp.api.Json.object().put("label", once.label()).put("value", once.value())
                    .put("note", once.note());
            OneTimeView.seal(x, pathOf(outcome.location()), sealed.toString());
        }
        x.redirect(outcome.location());
    }

    /** The value an action left for this page to show once ({@link PageOutcome#shownOnce}), if any. */
    private static PageViews.ShownOnce shownOnce(ConsoleExchange x, String path) {
        return OneTimeView.open(x, path).map(text -> {
            try {
                var once = dev.lnp.api.Json.mapper().readTree(text);
                return new PageViews.ShownOnce(once.path("label").asText(), once.path("value").asText(),
                        once.path("note").isTextual() ? once.path("note").asText() : null);
            } catch (java.io.IOException notOurs) {
                return null;
            }
        }).orElse(null);
    }

    /** The path of a location, without its query or fragment: what the one-time value is bound to. */
    private static String pathOf(String location) {
        int end = location.length();
        for (char c : new char[] {'?', '#'}) {
            int at = location.indexOf(c);
            if (at >= 0) end = Math.min(end, at);
        }
        return location.substring(0, end);
    }

    /**
     * The form of the view at the same path again, with what was typed and the errors; where no view of the path
     * answers a form (a board's move, a button), the problem as a page with its status.
     */
    private void showFormAgain(ConsoleExchange x, Page action, ConsoleSession session, int status,
            SchemaForm schemaForm, Map<String, String> typed, Map<String, String> errors, String summary) {
        if (showOnRecordPage(x, session, status, typed, errors, summary)) {
            return;
        }
        Optional<Page> view = console.plugins().pages().stream()
                .filter(p -> p.page().renderer() != null && p.page().path().equals(action.page().path())).findFirst();
        PageView shown = view.isEmpty() ? null
                : inWorkspace(session, tx -> view.get().page().renderer().render(new PersonCall(console, x, session, tx)));
        if (shown instanceof FormView form) {
            renderer.form(x, status, action, form, schemaForm.fields(typed, errors, form.choices(), "f-",
                    PageRenderer.choicesSearch(x)), summary);
            return;
        }
        List<String> lines = new ArrayList<>();
        if (summary != null) lines.add(summary);
        errors.forEach((field, error) -> lines.add(schemaForm.label(field) + ": " + error));
        x.render(status, "notice.jte", console.notice(x, "This did not happen", String.join(" ", lines),
                x.request().headers().first(io.helidon.http.HeaderNames.REFERER)
                        .filter(ReturnPaths::isLocal).orElse(home(action)), "Back"));
    }

    /**
     * A refused inline form comes back on the record's page it was sent from ({@link #SHOWN_ON}), when that page
     * still has a form posting to this action; {@code false} when it was sent from elsewhere (the form's own page).
     */
    private boolean showOnRecordPage(ConsoleExchange x, ConsoleSession session, int status, Map<String, String> typed,
            Map<String, String> errors, String summary) {
        String shownOn = x.form(SHOWN_ON);
        String actionPath = x.request().path().absolute().path();
        if (shownOn == null || !ReturnPaths.isLocal(shownOn) || shownOn.contains("?") || shownOn.contains("#")) {
            return false;
        }
        Optional<Page> page = viewAt(shownOn);
        if (page.isEmpty() || !allowed(session, page.get())) {
            return false;
        }
        Map<String, String> params = parameters(page.get().page().path(), shownOn);
        PageView view = inWorkspace(session, tx -> page.get().page().renderer()
                .render(new PersonCall(console, x, session, tx, params)));
        if (!(view instanceof dev.lnp.api.pages.DetailView detail)
                || detail.forms().stream().noneMatch(f -> f.action().equals(actionPath))) {
            return false;
        }
        renderer.render(x, status, page.get(), view, null, null, null,
                new PageRenderer.Refusal(shownOn, actionPath, typed, errors, summary));
        return true;
    }

    /** The view page whose address template {@code path} matches, if any. */
    private Optional<Page> viewAt(String path) {
        return console.plugins().pages().stream()
                .filter(p -> p.page().renderer() != null && matches(p.page().path(), path)).findFirst();
    }

    /** Whether the session's workspace has the page's module on and its role grants the page. */
    private boolean allowed(ConsoleSession session, Page page) {
        return !console.workspaceSettings().disabledModules(session.workspaceId()).contains(page.pluginId())
                && roleAllows(page.page(), session.role()) && scopes(session).contains(page.page().scope())
                && (!page.page().administration() || ConsoleAuthorization.allows(session,
                        ConsoleAuthorization.Permission.MANAGE_MODULES));
    }

    /** The {@code {name}} parameters of {@code path} against its page's {@code template}, decoded. */
    static Map<String, String> parameters(String template, String path) {
        String[] want = template.split("/", -1);
        String[] got = path.split("/", -1);
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < want.length && i < got.length; i++) {
            if (want[i].startsWith("{") && want[i].endsWith("}")) {
                params.put(want[i].substring(1, want[i].length() - 1),
                        java.net.URLDecoder.decode(got[i], StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    /**
     * The records of a long choice field matching what is typed in its search box: the page at {@code path} is
     * rendered again as the person (who must be allowed it) and the field's choices, on its form or on one of the
     * record page's forms, are filtered by every word typed (case and accents ignored). The answer is the
     * {@code <option>}s of the field's list; the one chosen stays.
     */
    private void choices(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        String path = x.query("path");
        String field = x.query("field");
        Optional<Page> page = path == null || field == null || !ReturnPaths.isLocal(path) ? Optional.empty()
                : viewAt(path);
        if (page.isEmpty()) {
            throw new ConsolePages.NotFound("No form at this address has that choice.", "/app", "Back");
        }
        admit(x, page.get());
        Map<String, String> params = parameters(page.get().page().path(), path);
        PageView view = inWorkspace(session, tx -> page.get().page().renderer()
                .render(new PersonCall(console, x, session, tx, params)));
        List<FormView.Choice> all = new ArrayList<>();
        if (view instanceof FormView form) {
            all.addAll(form.choices().getOrDefault(field, List.of()));
        } else if (view instanceof dev.lnp.api.pages.DetailView detail) {
            detail.forms().forEach(f -> all.addAll(f.form().choices().getOrDefault(field, List.of())));
        }
        String chosen = Optional.ofNullable(x.query(field)).orElse("");
        String[] words = fold(Optional.ofNullable(x.query("q")).orElse("")).split("\\s+");
        List<FormView.Choice> shown = new ArrayList<>();
        for (FormView.Choice choice : all) {
            String label = fold(choice.label());
            boolean matches = java.util.Arrays.stream(words).allMatch(label::contains);
            if (choice.value().equals(chosen) || choice.value().isEmpty() || matches && shown.size() < CHOICES_SHOWN) {
                shown.add(choice);
            }
        }
        x.render(200, "pagechoices.jte", new PageViews.Choices(SchemaForm.recordChoices(shown, chosen),
                shown.stream().anyMatch(c -> c.value().isEmpty()), shown.size() < all.size()));
    }

    /** Text compared without case or accents. */
    private static String fold(String text) {
        return java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFD).replaceAll("\\p{M}", "")
                .toLowerCase(java.util.Locale.ROOT).strip();
    }

    private SchemaForm form(Page page, FormView form) {
        return forms.computeIfAbsent(page.page().path() + "#view", p -> new SchemaForm(p, validation, form.schema()));
    }

    private <R> R inWorkspace(ConsoleSession session, PluginCode.Work<R> work) {
        return PluginCode.inWorkspace(transactions, session.workspaceId(), work);
    }
}
