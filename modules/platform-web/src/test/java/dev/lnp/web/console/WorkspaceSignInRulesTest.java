package dev.lnp.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A workspace's sign-in rules: domains, first sign-in, groups to roles, and the forms they are written in. */
class WorkspaceSignInRulesTest {

    private static final UUID WS = UUID.randomUUID();

    private static WorkspaceSignInRules rules(List<String> domains, boolean create, Map<String, String> groups) {
        return new WorkspaceSignInRules(WS, domains, create, "member", groups, true);
    }

    @Test
    void noListedDomainAdmitsAnyExistingUserButCreatesNobody() {
        var open = rules(List.of(), false, Map.of());
        assertTrue(open.allowsAddress("ada@anything.example"));
        assertFalse(new WorkspaceSignInRules(WS, List.of(), true, "member", Map.of(), true).createsUserFor("ada@x.example"));
    }

    @Test
    void listedDomainsAdmitOnlyTheirAddressesWhateverTheCase() {
        var acme = rules(List.of("acme.example"), true, Map.of());
        assertTrue(acme.allowsAddress("Ada@ACME.example"));
        assertFalse(acme.allowsAddress("ada@evil.example"));
        assertFalse(acme.allowsAddress("ada@sub.acme.example"));
        assertTrue(acme.createsUserFor("bob@acme.example"));
        assertFalse(rules(List.of("acme.example"), false, Map.of()).createsUserFor("bob@acme.example"));
    }

    @Test
    void groupsGiveTheStrongestMappedRoleElseTheDefault() {
        var mapped = rules(List.of(), false, Map.of("lnp-admins", "admin", "staff", "member"));
        assertEquals(Optional.of("admin"), mapped.roleFor(List.of("staff", "lnp-admins")));
        assertEquals(Optional.of("member"), mapped.roleFor(List.of("staff")));
        assertEquals(Optional.of("member"), mapped.roleFor(List.of("unrelated")));
        assertEquals(Optional.empty(), rules(List.of(), false, Map.of()).roleFor(List.of("lnp-admins")));
    }

    @Test
    void domainsAreReadFromCommasSpacesAndLines() {
        assertEquals(List.of("acme.example", "acme.org"),
                WorkspaceSignInRules.parseDomains(" @Acme.example, acme.org\nacme.example "));
        assertEquals(List.of(), WorkspaceSignInRules.parseDomains(""));
        var bad = assertThrows(WorkspaceSignInRules.Invalid.class, () -> WorkspaceSignInRules.parseDomains("acme"));
        assertEquals("Allowed domains: \"acme\" is not a domain such as example.com.", bad.getMessage());
        assertThrows(WorkspaceSignInRules.Invalid.class, () -> WorkspaceSignInRules.parseDomains("ex ample.com!"));
    }

    @Test
    void groupMappingsAreOneGroupAndRoleALine() {
        assertEquals(Map.of("lnp-admins", "admin", "CN=Staff,OU=x", "member"),
                WorkspaceSignInRules.parseGroupRoles("lnp-admins = Admin\n\n CN=Staff,OU=x=member \n"));
        var owner = assertThrows(WorkspaceSignInRules.Invalid.class,
                () -> WorkspaceSignInRules.parseGroupRoles("lnp-admins = admin\nbosses = owner"));
        assertTrue(owner.getMessage().startsWith("Groups and roles, line 2:"), owner.getMessage());
        assertThrows(WorkspaceSignInRules.Invalid.class, () -> WorkspaceSignInRules.parseGroupRoles("no role here"));
        assertEquals("a = member\nb = admin", rules(List.of(), false, Map.of("b", "admin", "a", "member"))
                .groupRolesText());
    }

    @Test
    void creatingUsersNeedsADomainAndTheDefaultRoleIsAdminOrMember() {
        var anyone = new WorkspaceSignInRules(WS, List.of(), true, "member", Map.of(), true);
        assertTrue(assertThrows(WorkspaceSignInRules.Invalid.class, anyone::checked).getMessage()
                .startsWith("Creating users on first sign-in needs at least one allowed domain"));
        var owner = new WorkspaceSignInRules(WS, List.of("acme.example"), true, "owner", Map.of(), true);
        assertEquals("Default role: choose admin or member.",
                assertThrows(WorkspaceSignInRules.Invalid.class, owner::checked).getMessage());
        assertEquals(WorkspaceSignInRules.defaults(WS), WorkspaceSignInRules.defaults(WS).checked());
    }
}
