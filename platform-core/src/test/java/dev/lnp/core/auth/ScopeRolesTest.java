package dev.lnp.core.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.workspace.Role;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which scopes each workspace role may act with follows the weakest role each scope was declared for. */
class ScopeRolesTest {

    private static ScopeCatalog catalog() {
        var registry = new PluginRegistry();
        registry.register("notes", registrar -> registrar
                .scope("notes.read", "Read notes.")
                .scope("notes.write", "Write notes.", Role.MEMBER)
                .scope("hooks.write", "Where the workspace's notes go.", Role.ADMIN)
                .scope("billing.write", "Pay for the workspace.", Role.OWNER));
        return new ScopeCatalog(registry);
    }

    @Test
    void aMemberHoldsTheScopesDeclaredWithoutARoleAndForMembersOnly() {
        assertEquals(Set.of("notes.read", "notes.write"), catalog().allowedForRole("member"));
    }

    @Test
    void anAdminAlsoHoldsTheAdminsScopesAndAnOwnerEveryScope() {
        ScopeCatalog catalog = catalog();
        assertEquals(Set.of("notes.read", "notes.write", "hooks.write"), catalog.allowedForRole("admin"));
        assertEquals(catalog.all(), catalog.allowedForRole("owner"));
    }

    @Test
    void aRoleTheWorkspaceDoesNotKnowHoldsNoScope() {
        assertEquals(Set.of(), catalog().allowedForRole("guest"));
        assertEquals(Set.of(), catalog().allowedForRole(null));
    }

    @Test
    void aScopeNeedsAWeakestRole() {
        var registry = new PluginRegistry();
        var error = assertThrows(NullPointerException.class,
                () -> registry.register("notes", registrar -> registrar.scope("notes.read", "Read notes.", null)));
        assertTrue(error.getMessage().contains("notes.read"), error.getMessage());
    }
}
