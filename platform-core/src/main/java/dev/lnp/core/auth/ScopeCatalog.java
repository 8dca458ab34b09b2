package dev.lnp.core.auth;

import dev.lnp.api.workspace.Role;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.Set;
import java.util.TreeSet;

/**
 * The scopes plugins declared, and what the presets and roles mean in terms of them. Presets are expanded
 * when a key is used, so a scope added by a new plugin joins {@code full-access} keys without re-issuing them.
 */
public final class ScopeCatalog {

    public static final String READ_ONLY = dev.lnp.api.internal.platform.PluginCatalog.READ_ONLY;
    public static final String FULL_ACCESS = dev.lnp.api.internal.platform.PluginCatalog.FULL_ACCESS;
    /** Opens the hosted MCP endpoints; each tool then needs its own scope. */
    public static final String MCP_USE = "mcp.use";

    private final Set<String> all;
    private final Set<String> readOnly;
    private final java.util.Map<Role, Set<String>> byRole = new java.util.EnumMap<>(Role.class);
    private final Set<String> toolScopes;

    public ScopeCatalog(PluginRegistry registry) {
        this.all = new TreeSet<>();
        registry.scopes().forEach(s -> all.add(s.name()));
        // A *.use scope opens a surface (e.g. mcp.use) without granting any write by itself, so a read-only key
        // can use the MCP surface with its read tools.
        this.readOnly = new TreeSet<>(all.stream().filter(s -> s.endsWith(".read") || s.endsWith(".use")).toList());
        // Each role holds the scopes declared for it or a weaker one (a member not the workspace-wide integration
        // settings, which their plugins declare for admins).
        for (Role role : Role.values()) {
            byRole.put(role, java.util.Collections.unmodifiableSet(new TreeSet<>(registry.scopes().stream()
                    .filter(s -> s.weakestRole().allows(role.id())).map(PluginRegistry.ScopeInfo::name).toList())));
        }
        this.toolScopes = new TreeSet<>();
        registry.tools().forEach(t -> toolScopes.add(t.descriptor().scope()));
    }

    /**
     * The scopes a key acts with, given what it was granted (presets expanded, delegation applied). Holding the
     * scope of any tool implies {@link #MCP_USE}: MCP is only another way to do what that scope already allows
     * (a key with just {@code contacts.write} must reach {@code crm_update_contact}, the contract's only way to
     * update a contact), and every tool still checks its own scope. The one rule for every route and tool.
     */
    public Set<String> effective(Set<String> granted) {
        if (granted.contains(MCP_USE) || !all.contains(MCP_USE) || granted.stream().noneMatch(toolScopes::contains)) {
            return Set.copyOf(granted);
        }
        Set<String> effective = new TreeSet<>(granted);
        effective.add(MCP_USE);
        return Set.copyOf(effective);
    }

    public Set<String> all() {
        return all;
    }

    public Set<String> preset(String preset) {
        if (preset == null) {
            return Set.of();
        }
        return switch (preset) {
            case READ_ONLY -> readOnly;
            case FULL_ACCESS -> all;
            default -> throw new IllegalArgumentException("Unknown preset " + preset);
        };
    }

    public static boolean isPreset(String name) {
        return READ_ONLY.equals(name) || FULL_ACCESS.equals(name);
    }

    /** The scopes a person of {@code role} ({@code owner}, {@code admin} or {@code member}) may act with; none for
     * any other role. */
    public Set<String> allowedForRole(String role) {
        for (Role known : Role.values()) {
            if (known.id().equals(role)) {
                return byRole.get(known);
            }
        }
        return Set.of();
    }
}
