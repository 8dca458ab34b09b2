package dev.lnp.web.console;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * One workspace's rules for signing in, as its owners and admins set them: the e-mail domains the OpenID Connect
 * provider may sign in (none listed: any address of an existing user), whether a first sign-in there creates the
 * user and with which role, which provider groups give which role, and whether e-mailed sign-in links still work.
 */
record WorkspaceSignInRules(UUID workspaceId, List<String> allowedDomains, boolean createUsers, String defaultRole,
        Map<String, String> groupRoles, boolean linksAllowed) {

    static final List<String> ROLES = List.of("admin", "member");
    private static final int MAX_DOMAINS = 50;
    private static final int MAX_GROUPS = 100;

    /** A setting that cannot be saved; the message says why, for a person. */
    static final class Invalid extends RuntimeException {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    WorkspaceSignInRules {
        allowedDomains = List.copyOf(allowedDomains);
        groupRoles = Map.copyOf(groupRoles);
    }

    /** A workspace that never changed its rules: links work, the provider signs in existing users only. */
    static WorkspaceSignInRules defaults(UUID workspaceId) {
        return new WorkspaceSignInRules(workspaceId, List.of(), false, "member", Map.of(), true);
    }

    /** Whether the provider may sign {@code email} in to this workspace. */
    boolean allowsAddress(String email) {
        return allowedDomains.isEmpty() || allowedDomains.contains(domainOf(email));
    }

    /** Whether a first sign-in from {@code email} creates a user here (only for a listed domain). */
    boolean createsUserFor(String email) {
        return createUsers && allowedDomains.contains(domainOf(email));
    }

    /**
     * The role the person's provider groups give here: the strongest mapped one, else the default role; empty when
     * the workspace maps no groups (the role stays as the members page set it).
     */
    Optional<String> roleFor(Collection<String> groups) {
        if (groupRoles.isEmpty()) {
            return Optional.empty();
        }
        boolean admin = groups.stream().map(groupRoles::get).anyMatch("admin"::equals);
        boolean member = groups.stream().map(groupRoles::get).anyMatch("member"::equals);
        return Optional.of(admin ? "admin" : member ? "member" : defaultRole);
    }

    static String domainOf(String email) {
        int at = email == null ? -1 : email.lastIndexOf('@');
        return at < 0 ? "" : email.substring(at + 1).toLowerCase(Locale.ROOT);
    }

    /** Domains from a form: separated by commas, spaces or lines; a leading {@code @} is dropped. */
    static List<String> parseDomains(String text) {
        var domains = new LinkedHashSet<String>();
        for (String part : (text == null ? "" : text).split("[,\\s]+")) {
            String domain = part.strip().toLowerCase(Locale.ROOT);
            if (domain.startsWith("@")) {
                domain = domain.substring(1);
            }
            if (domain.isEmpty()) {
                continue;
            }
            if (domain.length() > 253 || !domain.matches("([a-z0-9]([a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9-]{2,}")) {
                throw new Invalid("Allowed domains: \"" + part.strip() + "\" is not a domain such as example.com.");
            }
            domains.add(domain);
        }
        if (domains.size() > MAX_DOMAINS) {
            throw new Invalid("Allowed domains: at most " + MAX_DOMAINS + ".");
        }
        return new ArrayList<>(domains);
    }

    /** Group mappings from a form: one {@code group = role} a line (role admin or member). */
    static Map<String, String> parseGroupRoles(String text) {
        Map<String, String> mapped = new LinkedHashMap<>();
        int line = 0;
        for (String raw : (text == null ? "" : text).split("\\R")) {
            line++;
            String entry = raw.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.lastIndexOf('=');
            String group = eq < 0 ? "" : entry.substring(0, eq).strip();
            String role = eq < 0 ? "" : entry.substring(eq + 1).strip().toLowerCase(Locale.ROOT);
            if (group.isEmpty() || group.length() > 200 || !ROLES.contains(role)) {
                throw new Invalid("Groups and roles, line " + line + ": write group = admin or group = member, "
                        + "for example lnp-admins = admin.");
            }
            mapped.put(group, role);
        }
        if (mapped.size() > MAX_GROUPS) {
            throw new Invalid("Groups and roles: at most " + MAX_GROUPS + " lines.");
        }
        return mapped;
    }

    /** The mapping as the form shows it, one line each. */
    String groupRolesText() {
        var lines = new ArrayList<String>();
        new java.util.TreeMap<>(groupRoles).forEach((group, role) -> lines.add(group + " = " + role));
        return String.join("\n", lines);
    }

    /** Refuses rules that cannot hold together (the table checks the same). */
    WorkspaceSignInRules checked() {
        if (!ROLES.contains(defaultRole)) {
            throw new Invalid("Default role: choose admin or member.");
        }
        if (createUsers && allowedDomains.isEmpty()) {
            throw new Invalid("Creating users on first sign-in needs at least one allowed domain: otherwise anyone "
                    + "the provider knows would become a user of this workspace.");
        }
        return this;
    }
}
