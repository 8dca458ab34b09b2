package dev.lnp.testkit.console;

import dev.lnp.testkit.MailCatcher;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A browser stand-in for the console: keeps cookies, sends the console's Origin, never follows redirects. */
final class ConsoleClient {

    record Page(int status, String body, HttpResponse<String> response) {
        String location() {
            return response.headers().firstValue("Location").orElse(null);
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        /** The value of the last hidden input named {@code name} (the page's own form, after the header's). */
        String hidden(String name) {
            Matcher m = Pattern.compile("name=\"" + Pattern.quote(name) + "\" value=\"([^\"]*)\"").matcher(body);
            String last = null;
            while (m.find()) {
                last = m.group(1).replace("&amp;", "&");
            }
            if (last == null) {
                throw new AssertionError("no field " + name + " in\n" + body);
            }
            return last;
        }

        String firstMatch(String regex) {
            Matcher m = Pattern.compile(regex).matcher(body);
            return m.find() ? m.group(1) : null;
        }
    }

    private final String base;
    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient http;
    private String origin;

    ConsoleClient(int port) {
        this.base = "http://localhost:" + port;
        this.origin = base;
        this.http = HttpClient.newBuilder().cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    String base() {
        return base;
    }

    void origin(String origin) {
        this.origin = origin;
    }

    String cookie(String name) {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(name))
                .map(HttpCookie::getValue).findFirst().orElse(null);
    }

    void setCookie(String name, String value) {
        var cookie = new HttpCookie(name, value);
        cookie.setPath("/");
        cookie.setVersion(0);
        cookies.getCookieStore().add(URI.create(base + "/"), cookie);
    }

    void clearCookies() {
        cookies.getCookieStore().removeAll();
    }

    Page get(String path) {
        return send(HttpRequest.newBuilder(URI.create(path.startsWith("http") ? path : base + path)).GET());
    }

    Page post(String path, Map<String, String> form) {
        String body = form.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return postRaw(path, body);
    }

    Page postRaw(String path, String body) {
        return postRawTyped(path, body, "application/x-www-form-urlencoded");
    }

    /** A form post whose body is sent under {@code contentType}. */
    Page postRawTyped(String path, String body, String contentType) {
        var builder = HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (origin != null) {
            builder.header("Origin", origin);
        }
        return send(builder);
    }

    /** Signs this browser in the way a person does: asks for a link, takes it from the mail, presses the button. */
    ConsoleClient signIn(MailCatcher mail, String email) {
        int before = mail.messagesTo(email).size();
        var page = get("/console/sign-in");
        var sent = post("/console/sign-in", form("csrf", page.hidden("csrf"), "email", email));
        if (sent.status() != 200) {
            throw new AssertionError("sign-in request: " + sent.status() + "\n" + sent.body());
        }
        var confirm = get(mail.awaitLink(email, before + 1));
        var done = post("/console/sign-in/link", form("csrf", confirm.hidden("csrf"), "token", confirm.hidden("token")));
        if (done.status() != 303) {
            throw new AssertionError("sign-in: " + done.status() + "\n" + done.body());
        }
        return this;
    }

    /** A JSON request with the session cookie; {@code csrf} (may be null) goes in X-CSRF-Token. */
    Page json(String method, String path, String json, String csrf) {
        return json(method, path, json, csrf, "application/json");
    }

    /** As {@link #json(String, String, String, String)}, with the body sent under {@code contentType}. */
    Page json(String method, String path, String json, String csrf, String contentType) {
        var builder = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            builder.header("Content-Type", contentType);
        }
        if (csrf != null) {
            builder.header("X-CSRF-Token", csrf);
        }
        return send(builder);
    }

    static Map<String, String> form(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    private Page send(HttpRequest.Builder builder) {
        try {
            var response = http.send(builder.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            return new Page(response.statusCode(), response.body(), response);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
