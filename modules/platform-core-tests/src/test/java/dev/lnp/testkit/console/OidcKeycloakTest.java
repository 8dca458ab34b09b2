package dev.lnp.testkit.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.Browser;
import dev.lnp.testkit.Keycloak;
import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Sign-in with an OpenID Connect provider against a real Keycloak (its login page, its tokens, its logout) and a real
 * Chromium: an existing member whose Keycloak group maps to admin, a member created on first sign-in, a refused
 * domain and an unverified address (readable pages), sign-out through Keycloak, an ID token completed from the
 * userinfo endpoint (the second realm, {@link Keycloak#LEAN_REALM}); and over plain HTTP the callback's
 * refusals, the workspace's sign-in settings, links refused by a workspace, and a provider that is down.
 */
class OidcKeycloakTest {

    private static final String PROVIDER = "Acme ID";

    private static Keycloak keycloak;
    private static TestPlatform platform;
    private static UUID acme;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        keycloak = Keycloak.start();
        platform = TestPlatform.start("oidc-keycloak", List.of("probe"), null, Map.of(
                "lnp.oidc.issuer", keycloak.issuer(Keycloak.REALM),
                "lnp.oidc.client_id", Keycloak.CLIENT_ID,
                "lnp.oidc.client_secret", Keycloak.CLIENT_SECRET,
                "lnp.oidc.display_name", PROVIDER,
                "lnp.console.sign_in.per_ip", "1000"));
        base = "http://localhost:" + platform.port();
        acme = platform.workspaces().create("Acme", "owner@acme.example").id();
        platform.workspaces().addUser(acme, "ada@acme.example", "member");
        var saved = platform.person(acme, "owner").post("/console/sign-in-settings", "allowed_domains", "acme.example",
                "create_users", "on", "default_role", "member", "group_roles", "lnp-admins = admin",
                "links_allowed", "on");
        assertEquals(303, saved.status(), saved.body());
    }

    @AfterAll
    static void stop() {
        if (platform != null) {
            platform.close();
        }
        if (keycloak != null) {
            keycloak.close();
        }
    }

    /** Starts at the console's sign-in page, signs in on Keycloak's own login page, and waits to be back. */
    private static void signInAtKeycloak(Browser chromium, String username, String password) {
        signInAtKeycloak(chromium, base, username, password);
    }

    private static void signInAtKeycloak(Browser chromium, String base, String username, String password) {
        var driver = chromium.driver();
        driver.get(base + "/console/sign-in");
        chromium.waitFor(By.id("sign-in-oidc")).click();
        chromium.waitFor(By.id("username")).sendKeys(username);
        driver.findElement(By.id("password")).sendKeys(password);
        driver.findElement(By.id("kc-login")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().startsWith(base));
    }

    private static String heading(Browser chromium) {
        return chromium.waitFor(By.tagName("h1")).getText();
    }

    private static String role(String email) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT role FROM lnp_core.users WHERE workspace_id = :ws AND email = :e")
                .bind("ws", acme).bind("e", email).mapTo(String.class).findOne().orElse(null));
    }

    @Test
    void theSignInPageOffersTheProviderBesideTheMailedLink() throws Exception {
        try (var chromium = Browser.start()) {
            chromium.driver().get(base + "/console/sign-in");
            var button = chromium.waitFor(By.id("sign-in-oidc"));
            assertEquals("Sign in with " + PROVIDER, button.getText());
            assertNotNull(chromium.driver().findElement(By.id("email")));
            assertEquals(List.of(), chromium.seriousAccessibilityViolations());
            chromium.shoot("identity-01-sign-in");
        }
    }

    @Test
    void aKeycloakGroupMakesAnExistingMemberAdminAndSigningOutEndsTheKeycloakSessionToo() throws Exception {
        try (var chromium = Browser.start()) {
            var driver = chromium.driver();
            signInAtKeycloak(chromium, "ada", "ada-password");
            assertEquals(base + "/console/connections", driver.getCurrentUrl(), driver.getPageSource());
            assertEquals("admin", role("ada@acme.example"), "lnp-admins = admin applies at sign-in");
            assertTrue(driver.findElement(By.cssSelector("header")).getText().contains("Acme · admin"),
                    driver.findElement(By.cssSelector("header")).getText());
            String first = sessionCookie(chromium);

            // As an admin now, she sees the workspace's sign-in rules.
            driver.get(base + "/console/sign-in-settings");
            assertEquals("Sign-in", heading(chromium));
            assertEquals(List.of(), chromium.seriousAccessibilityViolations());
            chromium.shoot("identity-03-sign-in-settings");

            // Signing in again (Keycloak remembers her) ends the first session: a new id, never the old one.
            driver.get(base + "/console/sign-in/oidc");
            new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().startsWith(base + "/console/c"));
            String second = sessionCookie(chromium);
            assertNotEquals(first, second, driver.manage().getCookies().toString());
            assertEquals(1, liveSessions("ada@acme.example"));

            chromium.waitFor(By.xpath("//button[text()='Sign out']")).click();
            new WebDriverWait(driver, Duration.ofSeconds(20))
                    .until(d -> d.getCurrentUrl().startsWith(base + "/console/sign-in"));
            assertEquals(0, liveSessions("ada@acme.example"));
            // Keycloak's session ended too: signing in asks for the password again.
            chromium.waitFor(By.id("sign-in-oidc")).click();
            chromium.waitFor(By.id("username"));
            assertTrue(driver.getCurrentUrl().startsWith(keycloak.issuer(Keycloak.REALM)), driver.getCurrentUrl());
        }
    }

    /** The session cookie's value (Path=/). */
    private static String sessionCookie(Browser chromium) {
        var cookies = chromium.driver().manage().getCookies();
        return cookies.stream().filter(c -> c.getName().equals("lnp_console") && "/".equals(c.getPath()))
                .map(org.openqa.selenium.Cookie::getValue).findFirst()
                .orElseThrow(() -> new AssertionError("no session cookie in " + cookies));
    }

    private static long liveSessions(String email) {
        return platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT count(*) FROM lnp_core.console_sessions
                         WHERE email = :e AND revoked_at IS NULL AND expires_at > now()
                        """).bind("e", email).mapTo(Long.class).one());
    }

    @Test
    void aFirstSignInCreatesTheMemberWhereTheWorkspaceAsksForIt() throws Exception {
        assertEquals(null, role("bob@acme.example"));
        try (var chromium = Browser.start()) {
            signInAtKeycloak(chromium, "bob", "bob-password");
            assertEquals(base + "/console/sessions", chromium.driver().getCurrentUrl());
            assertEquals("member", role("bob@acme.example"));
            String recorded = platform.jdbi().withHandle(h -> h.createQuery("""
                            SELECT detail FROM lnp_core.console_activity
                             WHERE workspace_id = :ws AND action = 'member.created_at_sign_in' AND target = :e
                            """).bind("ws", acme).bind("e", "bob@acme.example").mapTo(String.class).one());
            assertEquals("as member, first sign-in with " + PROVIDER, recorded);
        }
    }

    /**
     * A provider whose ID token names only the subject: the address, its verification and the groups come from the
     * userinfo endpoint. Read back from the ID token the platform keeps for signing out, the token itself carries
     * none of them, so the role could only have come from userinfo.
     */
    @Test
    void anIdTokenWithoutAddressOrGroupsIsCompletedFromUserinfo() throws Exception {
        try (var lean = TestPlatform.start("oidc-userinfo", List.of("probe"), null, Map.of(
                "lnp.oidc.issuer", keycloak.issuer(Keycloak.LEAN_REALM),
                "lnp.oidc.client_id", Keycloak.CLIENT_ID,
                "lnp.oidc.client_secret", Keycloak.CLIENT_SECRET,
                "lnp.oidc.display_name", PROVIDER));
                var chromium = Browser.start()) {
            UUID workspace = lean.workspaces().create("Lean", "owner@acme.example").id();
            var saved = lean.person(workspace, "owner").post("/console/sign-in-settings", "allowed_domains",
                    "acme.example", "create_users", "on", "default_role", "member", "group_roles",
                    "lnp-admins = admin", "links_allowed", "on");
            assertEquals(303, saved.status(), saved.body());
            String leanBase = "http://localhost:" + lean.port();

            signInAtKeycloak(chromium, leanBase, "carol", "carol-password");
            assertEquals(leanBase + "/console/connections", chromium.driver().getCurrentUrl(),
                    chromium.driver().getPageSource());
            String role = lean.jdbi().withHandle(h -> h.createQuery(
                            "SELECT role FROM lnp_core.users WHERE workspace_id = :ws AND email = :e")
                    .bind("ws", workspace).bind("e", "carol@acme.example").mapTo(String.class).one());
            assertEquals("admin", role, "created at sign-in with the role of her group, both read from userinfo");

            String idToken = lean.jdbi().withHandle(h -> h.createQuery("SELECT id_token FROM lnp_web.oidc_sessions")
                    .mapTo(String.class).one());
            var claims = com.nimbusds.jwt.JWTParser.parse(idToken).getJWTClaimsSet().getClaims();
            assertTrue(claims.containsKey("sub"), claims.toString());
            assertTrue(!claims.containsKey("email") && !claims.containsKey("email_verified")
                    && !claims.containsKey("groups"), "the lean realm's ID token names only the subject: " + claims);
        }
    }

    @Test
    void anAddressOfARefusedDomainGetsAPageSayingWhy() throws Exception {
        try (var chromium = Browser.start()) {
            signInAtKeycloak(chromium, "eve", "eve-password");
            assertEquals("Addresses at elsewhere.example cannot sign in here", heading(chromium));
            assertEquals(0, liveSessions("eve@elsewhere.example"));
            assertEquals(List.of(), chromium.seriousAccessibilityViolations());
            chromium.shoot("identity-02-refused-domain");
        }
    }

    @Test
    void anUnverifiedAddressGetsAPageSayingWhy() throws Exception {
        try (var chromium = Browser.start()) {
            signInAtKeycloak(chromium, "una", "una-password");
            assertEquals("E-mail address not verified", heading(chromium));
            assertEquals(null, role("una@acme.example"), "no user is created for an unverified address");
        }
    }

    /** Begins a sign-in in {@code client}'s browser and answers the state Keycloak is sent. */
    private static String beginSignIn(ConsoleClient client) {
        var started = client.get("/console/sign-in/oidc");
        assertEquals(303, started.status(), started.body());
        URI location = URI.create(started.location());
        assertTrue(location.toString().startsWith(keycloak.issuer(Keycloak.REALM) + "/protocol/openid-connect/auth?"),
                location.toString());
        String query = location.getRawQuery();
        assertTrue(query.contains("code_challenge_method=S256") && query.contains("nonce=")
                && query.contains("code_challenge="), query);
        Matcher state = Pattern.compile("(?:^|&)state=([^&]+)").matcher(query);
        assertTrue(state.find(), query);
        return state.group(1);
    }

    @Test
    void theCallbackRefusesAnotherBrowserAForgedCodeAndAUsedState() {
        var asking = new ConsoleClient(platform.port());
        String state = beginSignIn(asking);

        var otherBrowser = new ConsoleClient(platform.port());
        otherBrowser.get("/console/sign-in");
        var elsewhere = otherBrowser.get("/console/sign-in/oidc/callback?code=x&state=" + state);
        assertEquals(403, elsewhere.status());
        assertTrue(elsewhere.body().contains("Finish signing in in the browser that started it"), elsewhere.body());

        var forged = asking.get("/console/sign-in/oidc/callback?code=forged&state=" + state);
        assertEquals(502, forged.status(), forged.body());
        assertTrue(forged.body().contains("could not confirm the sign-in with " + PROVIDER), forged.body());

        var again = asking.get("/console/sign-in/oidc/callback?code=forged&state=" + state);
        assertEquals(410, again.status());
        assertTrue(again.body().contains("This sign-in was already used"), again.body());

        var unknown = asking.get("/console/sign-in/oidc/callback?code=x&state=never-issued");
        assertEquals(400, unknown.status());
        var noCookie = new ConsoleClient(platform.port()).get("/console/sign-in/oidc/callback?code=x&state=" + state);
        assertEquals(403, noCookie.status());
        assertTrue(noCookie.body().contains("did not keep the sign-in"), noCookie.body());

        String cancelledState = beginSignIn(asking);
        var cancelled = asking.get("/console/sign-in/oidc/callback?error=access_denied&state=" + cancelledState);
        assertEquals(403, cancelled.status());
        assertTrue(cancelled.body().contains("the sign-in was cancelled or refused there"), cancelled.body());
    }

    @Test
    void ownersAndAdminsSetTheRulesAndAWrongRuleIsExplained() {
        TestPerson owner = platform.person(acme, "owner");
        var page = owner.get("/console/sign-in-settings");
        assertEquals(200, page.status());
        assertTrue(page.body().contains("value=\"acme.example\"") && page.body().contains("lnp-admins = admin"),
                page.body());
        var noDomain = owner.post("/console/sign-in-settings", "allowed_domains", "", "create_users", "on",
                "default_role", "member", "group_roles", "", "links_allowed", "on");
        assertEquals(400, noDomain.status());
        assertTrue(noDomain.body().contains("needs at least one allowed domain"), noDomain.body());
        var badGroup = owner.post("/console/sign-in-settings", "allowed_domains", "acme.example",
                "default_role", "member", "group_roles", "lnp-admins = owner", "links_allowed", "on");
        assertEquals(400, badGroup.status());
        assertTrue(badGroup.body().contains("Groups and roles, line 1"), badGroup.body());
        assertEquals(403, platform.person(acme, "member").get("/console/sign-in-settings").status());
        assertTrue(owner.get("/console/members").body().contains("href=\"/console/sign-in-settings\""));
    }

    @Test
    void aWorkspaceThatRefusesMailedLinksSaysSoOnTheLinkForm() {
        UUID globex = platform.workspaces().create("Globex", "owner@globex.example").id();
        platform.workspaces().addUser(globex, "carol@globex.example", "member");
        var client = new ConsoleClient(platform.port());
        var form = client.get("/console/sign-in");
        // A link mailed while links were still allowed…
        String mailed = new dev.lnp.web.console.SignInLinks(platform.jdbi()).issue("carol@globex.example",
                client.cookie("lnp_browser"), dev.lnp.web.console.SignInLinks.Purpose.SIGN_IN, null,
                Duration.ofMinutes(15));
        var saved = platform.person(globex, "owner").post("/console/sign-in-settings", "allowed_domains", "",
                "default_role", "member", "group_roles", "");
        assertEquals(303, saved.status(), saved.body());

        // …opens nothing once the workspace refuses them.
        var confirm = client.get("/console/sign-in/link?token=" + mailed);
        var used = client.post("/console/sign-in/link", ConsoleClient.form("csrf", confirm.hidden("csrf"),
                "token", mailed));
        assertEquals(403, used.status());
        assertTrue(used.body().contains("does not accept e-mailed sign-in links"), used.body());
        assertEquals(null, client.cookie("lnp_console"));

        var refused = client.post("/console/sign-in", ConsoleClient.form("csrf", form.hidden("csrf"),
                "email", "carol@globex.example"));
        assertEquals(403, refused.status());
        assertTrue(refused.body().contains("does not accept e-mailed sign-in links")
                && refused.body().contains("href=\"/console/sign-in/oidc\""), refused.body());
        var accepted = client.post("/console/sign-in", ConsoleClient.form("csrf", form.hidden("csrf"),
                "email", "owner@acme.example"));
        assertEquals(200, accepted.status());
        assertTrue(accepted.body().contains("Check your e-mail"));
    }

    @Test
    void theDoctorChecksTheProviderAndNamesAWrongSetting() {
        var settings = new java.util.HashMap<>(Map.of("lnp.oidc.issuer", keycloak.issuer(Keycloak.REALM),
                "lnp.oidc.client_id", Keycloak.CLIENT_ID, "lnp.oidc.client_secret", Keycloak.CLIENT_SECRET,
                "lnp.oidc.display_name", PROVIDER));
        var healthy = OperatorCli.run(platform, settings, "doctor");
        assertTrue(healthy.out().contains("ok    sign-in: with " + PROVIDER + " at " + keycloak.issuer(Keycloak.REALM)
                + " (authorization at " + keycloak.issuer(Keycloak.REALM) + "/protocol/openid-connect/auth)"), healthy.out());
        var noClient = new java.util.HashMap<>(settings);
        noClient.put("lnp.oidc.client_id", "");
        var refused = OperatorCli.run(platform, noClient, "doctor");
        assertEquals(1, refused.exit(), refused.out());
        assertTrue(refused.out().contains("FAIL  sign-in: lnp.oidc.client_id is required when lnp.oidc.issuer is set"),
                refused.out());
        var otherRealm = new java.util.HashMap<>(settings);
        otherRealm.put("lnp.oidc.issuer", keycloak.issuer("no-such-realm"));
        var wrongIssuer = OperatorCli.run(platform, otherRealm, "doctor");
        assertEquals(1, wrongIssuer.exit(), wrongIssuer.out());
        assertTrue(wrongIssuer.out().contains("FAIL  sign-in: " + PROVIDER + " cannot be used: its discovery document"),
                wrongIssuer.out());
    }

    @Test
    void aWrongSettingStopsTheStartNamingIt() {
        var refused = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> TestPlatform.start("oidc-wrong", List.of("probe"), null, Map.of(
                        "lnp.oidc.issuer", keycloak.issuer(Keycloak.REALM), "lnp.oidc.client_id", Keycloak.CLIENT_ID,
                        "lnp.oidc.client_secret", "x", "lnp.oidc.scopes", "openid profile")).close());
        String messages = "";
        for (Throwable t = refused; t != null; t = t.getCause()) {
            messages += t.getMessage() + "\n";
        }
        assertTrue(messages.contains("lnp.oidc.scopes must include openid and email"), messages);
    }

    @Test
    void aProviderThatIsDownGivesAReadablePage() throws Exception {
        int closed;
        try (var socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        try (var down = TestPlatform.start("oidc-down", List.of("probe"), null, Map.of(
                "lnp.oidc.issuer", "http://127.0.0.1:" + closed + "/realms/lnp",
                "lnp.oidc.client_id", Keycloak.CLIENT_ID,
                "lnp.oidc.client_secret", "x",
                "lnp.oidc.display_name", PROVIDER))) {
            var client = new ConsoleClient(down.port());
            assertTrue(client.get("/console/sign-in").body().contains("Sign in with " + PROVIDER));
            var page = client.get("/console/sign-in/oidc");
            assertEquals(503, page.status());
            assertTrue(page.body().contains(PROVIDER + " cannot be reached"), page.body());
        }
    }
}
