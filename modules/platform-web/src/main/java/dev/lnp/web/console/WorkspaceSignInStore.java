package dev.lnp.web.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lnp.api.internal.console.ConsoleSession;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** The workspaces' sign-in rules ({@code lnp_web.workspace_sign_in}); a workspace without a row has the defaults. */
final class WorkspaceSignInStore {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "workspace_id, allowed_domains, create_users, default_role, "
            + "group_roles::text AS group_roles, links_allowed";

    private final Jdbi jdbi;

    WorkspaceSignInStore(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    WorkspaceSignInRules rules(UUID workspaceId) {
        return of(List.of(workspaceId)).get(workspaceId);
    }

    /** The rules of each of {@code workspaceIds}, the defaults where a workspace set none. */
    Map<UUID, WorkspaceSignInRules> of(Collection<UUID> workspaceIds) {
        Map<UUID, WorkspaceSignInRules> found = new HashMap<>();
        if (!workspaceIds.isEmpty()) {
            jdbi.useHandle(h -> h.createQuery("SELECT " + COLUMNS
                            + " FROM lnp_web.workspace_sign_in WHERE workspace_id = ANY(:ids)")
                    .bind("ids", workspaceIds.toArray(UUID[]::new))
                    .map((rs, ctx) -> read(rs))
                    .forEach(r -> found.put(r.workspaceId(), r)));
        }
        workspaceIds.forEach(id -> found.computeIfAbsent(id, WorkspaceSignInRules::defaults));
        return found;
    }

    /** The workspaces where a first sign-in at the provider creates the user. */
    List<WorkspaceSignInRules> creatingUsers() {
        return jdbi.withHandle(h -> h.createQuery("SELECT " + COLUMNS
                        + " FROM lnp_web.workspace_sign_in WHERE create_users ORDER BY workspace_id")
                .map((rs, ctx) -> read(rs)).list());
    }

    void save(ConsoleSession actor, ConsoleActivity activity, WorkspaceSignInRules rules) {
        String groups;
        try {
            groups = JSON.writeValueAsString(rules.groupRoles());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        jdbi.useTransaction(h -> {
            h.createUpdate("""
                            INSERT INTO lnp_web.workspace_sign_in
                                   (workspace_id, allowed_domains, create_users, default_role, group_roles, links_allowed)
                            VALUES (:ws, :domains, :create, :role, CAST(:groups AS jsonb), :links)
                            ON CONFLICT (workspace_id) DO UPDATE SET allowed_domains = EXCLUDED.allowed_domains,
                                   create_users = EXCLUDED.create_users, default_role = EXCLUDED.default_role,
                                   group_roles = EXCLUDED.group_roles, links_allowed = EXCLUDED.links_allowed,
                                   updated_at = now()
                            """)
                    .bind("ws", actor.workspaceId()).bind("domains", rules.allowedDomains().toArray(String[]::new))
                    .bind("create", rules.createUsers()).bind("role", rules.defaultRole()).bind("groups", groups)
                    .bind("links", rules.linksAllowed())
                    .execute();
            activity.record(h, actor, "sign_in.rules_changed", "sign-in",
                    "domains: " + (rules.allowedDomains().isEmpty() ? "any" : String.join(", ", rules.allowedDomains()))
                            + "; create users: " + (rules.createUsers() ? "yes, as " + rules.defaultRole() : "no")
                            + "; mapped groups: " + rules.groupRoles().size()
                            + "; e-mailed links: " + (rules.linksAllowed() ? "allowed" : "refused"));
        });
    }

    private static WorkspaceSignInRules read(ResultSet rs) throws SQLException {
        Map<String, String> groups;
        try {
            groups = JSON.readValue(rs.getString("group_roles"), new TypeReference<Map<String, String>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("lnp_web.workspace_sign_in.group_roles is not a map of strings", e);
        }
        return new WorkspaceSignInRules(rs.getObject("workspace_id", UUID.class),
                Arrays.asList((String[]) rs.getArray("allowed_domains").getArray()), rs.getBoolean("create_users"),
                rs.getString("default_role"), groups, rs.getBoolean("links_allowed"));
    }
}
