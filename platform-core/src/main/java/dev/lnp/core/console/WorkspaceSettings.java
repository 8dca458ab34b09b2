package dev.lnp.core.console;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** A workspace's switched-off modules and its usage figures, as the console shows and changes them. */
final class WorkspaceSettings {

    record Usage(long crmUsed, Long crmQuotaOverride) {
    }

    record ConnectionLimits(String name, Integer restPerMinute, Integer mcpPerMinute) {
    }

    private final Jdbi jdbi;

    WorkspaceSettings(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    List<String> disabledModules(UUID workspaceId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT disabled_modules FROM lnp_core.workspaces WHERE id = :ws")
                .bind("ws", workspaceId)
                .map((rs, ctx) -> Arrays.asList((String[]) rs.getArray(1).getArray())).one());
    }

    /** Switches a plugin on or off for the workspace; effective on its next request (keys read it every time). */
    void setModule(ConsoleSessions.Session actor, ConsoleActivity activity, String pluginId, boolean enabled) {
        jdbi.useTransaction(h -> {
            h.createUpdate(enabled
                            ? "UPDATE lnp_core.workspaces SET disabled_modules = array_remove(disabled_modules, :p) WHERE id = :ws"
                            : """
                              UPDATE lnp_core.workspaces SET disabled_modules = array_append(disabled_modules, :p)
                               WHERE id = :ws AND NOT (:p = ANY(disabled_modules))
                              """)
                    .bind("p", pluginId).bind("ws", actor.workspaceId()).execute();
            activity.record(h, actor, enabled ? "module.enabled" : "module.disabled", pluginId, null);
        });
    }

    Usage usage(UUID workspaceId) {
        LocalDate month = LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1);
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT w.crm_quota_monthly,
                               COALESCE((SELECT used FROM lnp_core.quota_usage q
                                          WHERE q.workspace_id = w.id AND q.counter = 'crm' AND q.month = :month), 0) AS used
                          FROM lnp_core.workspaces w WHERE w.id = :ws
                        """)
                .bind("ws", workspaceId).bind("month", month)
                .map((rs, ctx) -> new Usage(rs.getLong("used"), (Long) rs.getObject("crm_quota_monthly"))).one());
    }

    List<ConnectionLimits> connectionLimits(UUID workspaceId) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT name, rest_per_minute, mcp_per_minute FROM lnp_core.connections
                         WHERE workspace_id = :ws AND revoked_at IS NULL
                           AND (rest_per_minute IS NOT NULL OR mcp_per_minute IS NOT NULL)
                         ORDER BY name
                        """)
                .bind("ws", workspaceId)
                .map((rs, ctx) -> new ConnectionLimits(rs.getString("name"), (Integer) rs.getObject("rest_per_minute"),
                        (Integer) rs.getObject("mcp_per_minute")))
                .list());
    }
}
