package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsoleSession;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** A workspace's switched-off modules and its usage figures, as the console shows and changes them. */
final class WorkspaceSettings {

    /** One declared quota's units used this month, and the workspace's own limit when it has one. */
    record QuotaUse(String quota, long used, Long workspaceLimit) {
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
    void setModule(ConsoleSession actor, ConsoleActivity activity, String pluginId, boolean enabled) {
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

    List<QuotaUse> usage(UUID workspaceId, List<String> quotas) {
        LocalDate month = LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1);
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT n.quota,
                               COALESCE((SELECT used FROM lnp_core.quota_usage u
                                          WHERE u.workspace_id = :ws AND u.counter = n.quota AND u.month = :month), 0) AS used,
                               (SELECT monthly FROM lnp_core.workspace_quotas w
                                 WHERE w.workspace_id = :ws AND w.quota = n.quota) AS own
                          FROM unnest(:quotas) AS n(quota)
                         ORDER BY n.quota
                        """)
                .bind("ws", workspaceId).bind("month", month).bind("quotas", quotas.toArray(String[]::new))
                .map((rs, ctx) -> new QuotaUse(rs.getString("quota"), rs.getLong("used"), (Long) rs.getObject("own")))
                .list());
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
