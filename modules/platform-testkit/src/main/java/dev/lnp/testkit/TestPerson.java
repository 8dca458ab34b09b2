package dev.lnp.testkit;

import dev.lnp.web.console.ConsoleSessions;
import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A person signed in to a workspace, for tests of the pages a plugin contributes (the page API): a browser without
 * JavaScript that keeps its cookies (the session, a notice left for the next page), sends the platform's own
 * {@code Origin} and the session's CSRF token with every form it posts, and never follows redirects, so a test sees each answer as the browser would.
 *
 * <pre>{@code
 * TestPerson member = platform.person(workspace, "member");
 * assertEquals(200, member.get("/app/notes/items").status());
 * var saved = member.post("/app/notes/items/" + id + "/edit", "text", "Call Ada back");
 * assertEquals(303, saved.status());
 * }</pre>
 */
public final class TestPerson {

    /** One answer: its status, its HTML and, for a redirect, where it leads. */
    public record Page(int status, String body, String location) {
    }

    private final String base;
    private final String csrf;
    private final String sessionToken;
    private final String email;
    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .cookieHandler(cookies).connectTimeout(Duration.ofSeconds(10)).build();

    TestPerson(TestPlatform platform, UUID workspaceId, String role) {
        this.base = "http://localhost:" + platform.port();
        if (role.equals("owner")) {
            this.email = platform.jdbi().withHandle(h -> h.createQuery(
                            "SELECT email FROM lnp_core.users WHERE workspace_id = :ws AND role = 'owner'")
                    .bind("ws", workspaceId).mapTo(String.class).one());
        } else {
            this.email = role + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
            platform.workspaces().addUser(workspaceId, email, role);
        }
        UUID userId = platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT id FROM lnp_core.users WHERE workspace_id = :ws AND lower(email) = lower(:email)")
                .bind("ws", workspaceId).bind("email", email).mapTo(UUID.class).one());
        var issued = new ConsoleSessions(platform.jdbi(), Duration.ofHours(1)).create(email, userId, "test", "127.0.0.1");
        var session = new HttpCookie("lnp_console", issued.token());
        session.setPath("/");
        session.setVersion(0);
        cookies.getCookieStore().add(URI.create(base + "/"), session);
        this.csrf = issued.session().csrfToken();
        this.sessionToken = issued.token();
    }

    /** Signs this person in to {@code browser}: it opens the platform and holds the person's session cookie. */
    public void signIn(Browser browser) {
        browser.driver().get(base + "/console/sign-in");
        browser.driver().manage().addCookie(new org.openqa.selenium.Cookie.Builder("lnp_console", sessionToken)
                .path("/").isHttpOnly(true).build());
    }

    public String email() {
        return email;
    }

    public Page get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    /** Posts a form of {@code name, value, name, value…} with the session's CSRF token. */
    public Page post(String path, String... namesAndValues) {
        List<String> pairs = new ArrayList<>(List.of("csrf=" + encode(csrf)));
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            pairs.add(encode(namesAndValues[i]) + "=" + encode(namesAndValues[i + 1]));
        }
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Origin", base)
                .POST(HttpRequest.BodyPublishers.ofString(String.join("&", pairs))));
    }

    private Page send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Page(response.statusCode(), response.body(),
                    response.headers().firstValue("Location").orElse(null));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
