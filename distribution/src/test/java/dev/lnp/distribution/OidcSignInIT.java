package dev.lnp.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lnp.testkit.Browser;
import dev.lnp.testkit.Keycloak;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Signing in with the deployment's OpenID Connect provider, walked on the release image ({@link ReleaseImage}: the
 * unpacked archive, {@code bin/platform serve} on its own runtime and module path) against a real Keycloak (the
 * testkit's, with its test realm) in headless Chromium. The in-process {@code OidcKeycloakTest} covers the rules in
 * depth on the class path; this is where the SDK's classes, its JSON and JOSE libraries and the pages they lead to
 * are proven on the module path of the image, configured as an operator configures it (environment variables, the
 * client secret in a file). One Keycloak and one image serve the class; the journeys run in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OidcSignInIT {

    private static final Duration START = Duration.ofMinutes(3);
    private static final Duration BACK = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROVIDER = "Acme ID";
    private static final String OWNER = "owner@acme.example";

    private ReleaseImage image;
    private ImageServer server;
    private Keycloak keycloak;
    private String base;

    @BeforeAll
    void startKeycloakAndTheImage() throws Exception {
        image = ReleaseImage.unpack("oidc");
        // Keycloak starts while the image does (the platform reads the provider's metadata at the first sign-in, not
        // at start): two slow starts at once rather than one after the other.
        keycloak = Keycloak.launch();
        int port = ImageServer.freePort();
        // Keycloak's test client accepts redirect URIs on localhost: the platform's public URL says localhost.
        base = "http://localhost:" + port;
        Path secret = Files.writeString(image.work.resolve("oidc-client-secret"), Keycloak.CLIENT_SECRET + "\n");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LNP_BASE_URL", base);
        env.put("LNP_OIDC_ISSUER", keycloak.issuer(Keycloak.REALM));
        env.put("LNP_OIDC_CLIENT__ID", Keycloak.CLIENT_ID);
        env.put("LNP_OIDC_CLIENT__SECRET__FILE", secret.toString());
        env.put("LNP_OIDC_DISPLAY__NAME", PROVIDER);
        server = image.start("oidc", port, env);
        server.awaitReady(START);
        keycloak.awaitRealms();
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (server != null && server.process().isAlive()) {
                server.stopAndAssertClean();
            }
        } finally {
            if (keycloak != null) {
                keycloak.close();
            }
            if (image != null) {
                image.close();
            }
        }
    }

    /**
     * The operator creates the workspace; its owner, signed in by the link the operator prints, lets addresses at
     * acme.example in, creates members at their first sign-in, and makes the provider's group lnp-admins admins.
     */
    @Test
    @Order(1)
    void theOwnerSetsTheWorkspacesSignInRules() throws Exception {
        JsonNode workspace = JSON.readTree(image.operator("workspace", "create", "--name", "Acme", "--owner-email",
                OWNER, "--json"));
        assertNotNull(workspace.path("id").textValue(), workspace.toString());
        String link = JSON.readTree(image.operator("user", "sign-in-link", "--email", OWNER, "--json"))
                .path("sign_in_link").asText();
        URI linkUri = URI.create(link);
        var owner = new ConsoleBrowser(base);
        ConsoleBrowser.Page confirm = owner.get(linkUri.getRawPath() + "?" + linkUri.getRawQuery());
        assertEquals(200, confirm.status(), confirm.toString());
        assertEquals(303, owner.submit(confirm.form("/console/sign-in/link")).status());

        HtmlForm rules = owner.get("/console/sign-in-settings").form("/console/sign-in-settings")
                .with("allowed_domains", "acme.example").with("create_users", "on").with("default_role", "member")
                .with("group_roles", "lnp-admins = admin");
        ConsoleBrowser.Page saved = owner.submit(rules);
        assertEquals(303, saved.status(), saved.toString());
        ConsoleBrowser.Page shown = owner.get("/console/sign-in-settings");
        assertTrue(shown.body().contains("lnp-admins = admin"), shown.toString());
    }

    /**
     * Ada, new to the platform and in Keycloak's group lnp-admins, signs in on Keycloak's page: she becomes an admin
     * of Acme; signing out ends her Keycloak session too (RP-initiated logout), so the next sign-in asks for her
     * password again.
     */
    @Test
    @Order(2)
    void aPersonSignsInThroughKeycloakGetsTheRoleOfHerGroupAndSignsOutThere() throws Exception {
        try (var chromium = startChromium()) {
            var driver = chromium.driver();
            driver.get(base + "/console/sign-in");
            var button = chromium.waitFor(By.id("sign-in-oidc"));
            assertEquals("Sign in with " + PROVIDER, button.getText());
            signInAtKeycloak(chromium, "ada", "ada-password");
            assertEquals(base + "/console/connections", driver.getCurrentUrl(), driver.getPageSource());
            String header = chromium.waitFor(By.cssSelector("header")).getText();
            assertTrue(header.contains("Acme · admin"), "created at her first sign-in as admin: " + header);
            chromium.shoot("oidc-release-01-signed-in");

            chromium.waitFor(By.xpath("//button[text()='Sign out']")).click();
            new WebDriverWait(driver, BACK).until(d -> d.getCurrentUrl().startsWith(base + "/console/sign-in"));
            driver.get(base + "/console/connections");
            new WebDriverWait(driver, BACK).until(d -> d.getCurrentUrl().startsWith(base + "/console/sign-in"));

            chromium.waitFor(By.id("sign-in-oidc")).click();
            chromium.waitFor(By.id("username"));
            assertTrue(driver.getCurrentUrl().startsWith(keycloak.issuer(Keycloak.REALM)),
                    "Keycloak asks for the password again: " + driver.getCurrentUrl());
        }
    }

    /** Eve's address is at a domain the workspace does not let in: a readable page says so, and no session. */
    @Test
    @Order(3)
    void anAddressAtARefusedDomainGetsAPageSayingWhy() throws Exception {
        try (var chromium = startChromium()) {
            chromium.driver().get(base + "/console/sign-in");
            signInAtKeycloak(chromium, "eve", "eve-password");
            assertEquals("Addresses at elsewhere.example cannot sign in here",
                    chromium.waitFor(By.tagName("h1")).getText());
            chromium.driver().get(base + "/console/connections");
            new WebDriverWait(chromium.driver(), BACK)
                    .until(d -> d.getCurrentUrl().startsWith(base + "/console/sign-in"));
        }
    }

    /**
     * What only the module path breaks (a package of the SDK or its libraries not opened or not read) can end as a
     * logged error behind a page that looks right: the log holds none.
     */
    @Test
    @Order(4)
    void theImageLoggedNoErrorWhileSigningIn() throws Exception {
        String log = Files.readString(server.log());
        List<String> errors = log.lines().filter(l -> l.contains("\"level\":\"SEVERE\"")
                || l.contains("InaccessibleObjectException") || l.contains("NoClassDefFoundError")
                || l.contains("IllegalAccessError")).toList();
        assertEquals(List.of(), errors, "the image's log while people signed in with " + PROVIDER);
    }

    private static Browser startChromium() throws Exception {
        if (!Files.isExecutable(Browser.CHROMIUM) || !Files.isExecutable(Browser.CHROMEDRIVER)) {
            assertTrue(System.getenv("CI") == null, "CI must run the sign-in journey: install chromium and "
                    + "chromium-driver (.ci/run does)");
        }
        return Browser.start();
    }

    /** Presses the provider's button on the sign-in page, signs in on Keycloak's own page, and waits to be back. */
    private void signInAtKeycloak(Browser chromium, String username, String password) {
        var driver = chromium.driver();
        chromium.waitFor(By.id("sign-in-oidc")).click();
        chromium.waitFor(By.id("username")).sendKeys(username);
        driver.findElement(By.id("password")).sendKeys(password);
        driver.findElement(By.id("kc-login")).click();
        new WebDriverWait(driver, BACK).until(d -> d.getCurrentUrl().startsWith(base));
    }
}
