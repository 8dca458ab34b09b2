package dev.lnp.core.tenancy;

import java.sql.Array;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * Which of the deployment's plugins each workspace has switched off ({@code workspaces.disabled_modules}). The
 * request path reads the list with the caller's key on every request, so a change here applies to the next
 * request on every node.
 */
public final class WorkspaceModules {

    /** A workspace as an operator lists it. */
    public record Summary(UUID id, String name, String ownerEmail, Instant createdAt, List<String> disabledModules) {
    }

    /** One module's state in a workspace; {@code installed} is false for an id the deployment no longer loads. */
    public record ModuleState(String id, boolean enabled, boolean installed) {
    }

    private final Jdbi jdbi;
    private final Set<String> installed;

    /** @param installed the ids of the plugins the deployment loads (the core excluded: it cannot be switched off) */
    public WorkspaceModules(Jdbi jdbi, Collection<String> installed) {
        this.jdbi = jdbi;
        this.installed = Set.copyOf(installed);
    }

    /** Every workspace, oldest first. */
    public List<Summary> list() {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT id, name, owner_email, created_at, disabled_modules
                        FROM lnp_core.workspaces ORDER BY created_at, id
                        """)
                .map((rs, ctx) -> new Summary(rs.getObject("id", UUID.class), rs.getString("name"),
                        rs.getString("owner_email"), rs.getTimestamp("created_at").toInstant(),
                        strings(rs.getArray("disabled_modules"))))
                .list());
    }

    /** The modules a workspace has switched off (none for a workspace that does not exist). */
    public List<String> disabled(UUID workspace) {
        return jdbi.withHandle(h -> h.createQuery("SELECT disabled_modules FROM lnp_core.workspaces WHERE id = :id")
                .bind("id", workspace).map((rs, ctx) -> strings(rs.getArray(1))).findOne().orElse(List.of()));
    }

    /**
     * Switches modules on and off for one workspace in one statement (concurrent changes to other modules are
     * kept) and answers every module's state afterwards.
     *
     * @throws IllegalArgumentException for an unknown module, or one named both to enable and to disable
     * @throws NoSuchElementException when the workspace does not exist
     */
    public List<ModuleState> change(UUID workspace, Collection<String> enable, Collection<String> disable) {
        Set<String> both = new TreeSet<>(enable);
        both.retainAll(disable);
        if (!both.isEmpty()) {
            throw new IllegalArgumentException("module " + String.join(", ", both) + " is named in both --enable and --disable");
        }
        for (String id : disable) {
            if (!installed.contains(id)) {
                throw new IllegalArgumentException(unknown(id));
            }
        }
        List<String> disabled = jdbi.inTransaction(h -> {
            List<String> current = h.createQuery(
                            "SELECT disabled_modules FROM lnp_core.workspaces WHERE id = :id FOR UPDATE")
                    .bind("id", workspace)
                    .map((rs, ctx) -> strings(rs.getArray(1)))
                    .findOne().orElseThrow(() -> new NoSuchElementException("no workspace " + workspace));
            for (String id : enable) {
                // An id no longer installed may still be enabled: that clears it from the list.
                if (!installed.contains(id) && !current.contains(id)) {
                    throw new IllegalArgumentException(unknown(id));
                }
            }
            if (enable.isEmpty() && disable.isEmpty()) {
                return current;
            }
            Set<String> next = new TreeSet<>(current);
            next.addAll(disable);
            next.removeAll(enable);
            h.createUpdate("UPDATE lnp_core.workspaces SET disabled_modules = :disabled WHERE id = :id")
                    .bind("id", workspace)
                    .bindArray("disabled", String.class, List.copyOf(next))
                    .execute();
            return List.copyOf(next);
        });
        return states(disabled);
    }

    private List<ModuleState> states(List<String> disabled) {
        Set<String> ids = new TreeSet<>(installed);
        ids.addAll(disabled);
        List<ModuleState> states = new ArrayList<>();
        for (String id : ids) {
            states.add(new ModuleState(id, !disabled.contains(id), installed.contains(id)));
        }
        return states;
    }

    private String unknown(String id) {
        return "unknown module '" + id + "'; the deployment's modules are " + String.join(", ", new TreeSet<>(installed));
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : List.copyOf(new TreeSet<>(Arrays.asList((String[]) array.getArray())));
    }
}
