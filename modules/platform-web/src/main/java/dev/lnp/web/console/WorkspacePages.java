package dev.lnp.web.console;

import dev.lnp.api.internal.console.Choice;
import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.platform.PluginCatalog;
import java.util.ArrayList;
import java.util.List;

/** Modules (switch each plugin per workspace) and Usage (each declared monthly quota this month, rate limits). */
final class WorkspacePages {

    private final Console console;

    WorkspacePages(Console console) {
        this.console = console;
    }

    void modules(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_MODULES);
        var disabled = console.workspaceSettings().disabledModules(session.workspaceId());
        List<Views.Module> modules = new ArrayList<>();
        for (var plugin : console.plugins().plugins()) {
            if (plugin.pluginId().equals(PluginCatalog.CORE_ID)) {
                continue;
            }
            modules.add(new Views.Module(plugin.pluginId(), !disabled.contains(plugin.pluginId()),
                    plugin.routes(), plugin.tools(), plugin.events(), plugin.scopes().stream().sorted().toList()));
        }
        x.render(200, "modules.jte", new Views.ModulesPage(console.chrome(x, "Modules", "/console/modules"), modules));
    }

    void switchModule(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.MANAGE_MODULES);
        x.checkPost(session.csrfToken());
        String id = x.pathParam("id");
        boolean known = id != null && !id.equals(PluginCatalog.CORE_ID) && console.plugins().hasPlugin(id);
        String enabled = x.form("enabled");
        if (!known || !("true".equals(enabled) || "false".equals(enabled))) {
            x.render(404, "notice.jte", console.notice(x, "No such module",
                    "This deployment has no module with that id.", "/console/modules", "Modules"));
            return;
        }
        if ("false".equals(enabled) && !"yes".equals(x.form("confirm"))) {
            // Switching off cuts every key's access to the module at once: nothing changes until it is confirmed.
            x.render(200, "confirmaction.jte", new Views.ConfirmAction(console.chrome(x, "Switch off " + id,
                    "/console/modules"), "Switch off " + id + "?",
                    "For every key of this workspace its API routes answer 404 and its MCP tools are no longer "
                            + "offered, from the next request on. Its data is kept; switching it on again restores "
                            + "access.",
                    "/console/modules/" + id, List.of(new Choice("enabled", "false", false)), "Switch off",
                    "/console/modules"));
            return;
        }
        console.workspaceSettings().setModule(session, console.activity(), id, Boolean.parseBoolean(enabled));
        x.redirect("/console/modules");
    }

    void usage(ConsoleExchange x) {
        var session = x.requireWorkspaceSession();
        ConsoleAuthorization.require(session, Permission.VIEW_USAGE);
        var limits = console.limits();
        var declared = console.plugins().quotas();
        var used = console.workspaceSettings().usage(session.workspaceId(),
                declared.stream().map(PluginCatalog.Quota::name).toList());
        var quotas = used.stream().map(u -> {
            String plugin = declared.stream().filter(q -> q.name().equals(u.quota())).findFirst()
                    .map(PluginCatalog.Quota::pluginId).orElse("");
            long limit = limits.quotaLimit(u.quota(),
                    u.workspaceLimit() == null ? java.util.Map.of() : java.util.Map.of(u.quota(), u.workspaceLimit()));
            return new Views.QuotaUsage(u.quota(), plugin, u.used(), limit, u.workspaceLimit() != null);
        }).toList();
        x.render(200, "usage.jte", new Views.UsagePage(console.chrome(x, "Usage", "/console/usage"),
                quotas, limits.restPerMinute(),
                limits.mcpPerMinute(), console.workspaceSettings().connectionLimits(session.workspaceId()).stream()
                        .map(c -> new Views.ConnectionLimit(c.name(), c.restPerMinute(), c.mcpPerMinute())).toList()));
    }
}
