package dev.lnp.api.pages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One page address as a plugin declares it: its path, the scope it needs, where it sits in the navigation and its
 * handler, visible together.
 *
 * <pre>{@code
 * PageRegistrar app = PageRegistrar.of(registrar);
 * app.page(PageRoute.view("/app/notes/items").scope(READ).nav("Notes", "Items")
 *         .renderer(call -> pages.list(call)));
 * app.page(PageRoute.view("/app/notes/items/{id}/edit").scope(WRITE).renderer(pages::editForm));
 * app.page(PageRoute.action("/app/notes/items/{id}/edit").scope(WRITE).form(schemas.itemUpdate)
 *         .action((call, values) -> pages.save(call, values)));
 * }</pre>
 *
 * <p>Paths start with {@code /app/} (the workspace application, every member whose role grants the scope) or
 * {@code /console/} (administration: owners and admins), and take {@code {name}} parameters. A
 * {@linkplain #action(String) action} answers a form posted to its path; when its values fail the
 * {@linkplain Builder#form form's schema} (or the action throws an {@link dev.lnp.api.http.ApiProblem} with field
 * errors), the web layer shows the {@linkplain #view(String) view} of the same path again with the values kept and
 * each error next to its field, so an action's path is also a view's path.
 *
 * @param method {@code GET} for a view, {@code POST} for an action
 * @param scope the scope the person's role must grant in the workspace, the same names the API's keys carry
 * @param role the weakest workspace role that may open it ({@code member}, {@code admin} or {@code owner}), for a
 *             page only some roles may use whatever their scopes (e.g. owners alone); {@code null}: the scope decides
 * @param navGroup and {@code navLabel}: the navigation entry this page is, or both {@code null}
 * @param liveOn event names (e.g. {@code crm.contact.created}, or {@code crm.contact.*}) after which an open view
 *               of this page refreshes its content; empty for none
 * @param form the JSON Schema (draft 2020-12) an action's values must satisfy; {@code null} for a view
 */
public record PageRoute(String method, String path, String scope, String role, String navGroup, String navLabel,
                        List<String> liveOn, JsonNode form, Renderer renderer, Action action) {

    private static final JsonNode BUTTON = buttonSchema();
    private static final Pattern PATH = Pattern.compile("/(app|console)(/([a-z0-9][a-z0-9_-]*|\\{[a-z_]+\\}))+");
    /** The workspace roles, weakest first. */
    public static final List<String> ROLES = List.of("member", "admin", "owner");
    private static final Pattern EVENT = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*(\\.\\*)?");

    /** What a view shows for one request. */
    @FunctionalInterface
    public interface Renderer {
        PageView render(PageCall call) throws Exception;
    }

    /** What an action does with the checked values of a posted form. */
    @FunctionalInterface
    public interface Action {
        PageOutcome act(PageCall call, ObjectNode values) throws Exception;
    }

    public PageRoute {
        Objects.requireNonNull(path, "path");
        if (!PATH.matcher(path).matches()) {
            throw new IllegalArgumentException("a page path starts with /app/ or /console/, lowercase segments or "
                    + "{name} parameters: " + path);
        }
        Objects.requireNonNull(scope, () -> "page " + path + " needs a scope");
        if (role != null && !ROLES.contains(role)) throw new IllegalArgumentException("not a role: " + role);
        if ((renderer == null) == (action == null)) {
            throw new IllegalArgumentException("page " + path + " needs exactly one renderer or action");
        }
        if (action != null && form == null) throw new IllegalArgumentException("action " + path + " needs a form schema");
        if ((navGroup == null) != (navLabel == null)) throw new IllegalArgumentException("nav of " + path);
        liveOn = List.copyOf(liveOn);
        for (String event : liveOn) {
            if (!EVENT.matcher(event).matches()) throw new IllegalArgumentException("not an event name: " + event);
        }
    }

    /** {@code {"type": "object", "properties": {}}}, built here rather than parsed with {@code Json}: no cycle. */
    private static JsonNode buttonSchema() {
        ObjectNode schema = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        schema.put("type", "object").putObject("properties");
        return schema;
    }

    /** Whether people reach it in the administration ({@code /console/…}) rather than the application. */
    public boolean administration() {
        return path.startsWith("/console/");
    }

    public static Builder view(String path) {
        return new Builder("GET", path);
    }

    public static Builder action(String path) {
        return new Builder("POST", path);
    }

    public static final class Builder {
        private final String method;
        private final String path;
        private String scope;
        private String role;
        private String navGroup;
        private String navLabel;
        private List<String> liveOn = List.of();
        private JsonNode form;

        private Builder(String method, String path) {
            this.method = method;
            this.path = path;
        }

        public Builder scope(String scope) {
            this.scope = scope;
            return this;
        }

        /** Only people with {@code role} or a stronger one open the page (and see its navigation entry). */
        public Builder role(String role) {
            this.role = role;
            return this;
        }

        /** Makes the page a navigation entry: {@code group} is the module's heading, {@code label} the link. */
        public Builder nav(String group, String label) {
            this.navGroup = group;
            this.navLabel = label;
            return this;
        }

        /** An open view refreshes when one of these events happens in the workspace (server-sent events). */
        public Builder liveOn(String... eventNames) {
            this.liveOn = List.of(eventNames);
            return this;
        }

        /**
         * An action that is a button ({@code Link.post}): nothing is posted but the CSRF token, which the web layer
         * checks, and the ticked confirmation, which an action that needs it reads from its own form.
         */
        public Builder button() {
            this.form = BUTTON;
            return this;
        }

        /** The schema of an action's form; usually the same file as the API's body schema. */
        public Builder form(JsonNode schema) {
            this.form = schema;
            return this;
        }

        public PageRoute renderer(Renderer renderer) {
            return new PageRoute(method, path, scope, role, navGroup, navLabel, liveOn, form, renderer, null);
        }

        public PageRoute action(Action action) {
            return new PageRoute(method, path, scope, role, navGroup, navLabel, liveOn, form, null, action);
        }
    }
}
