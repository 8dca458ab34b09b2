package dev.lnp.distribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A person's browser without script, for the server-rendered pages: keeps its cookies, sends the deployment's
 * Origin on every POST (as browsers do for forms), follows no redirect by itself.
 */
final class ConsoleBrowser {

    record Page(int status, String body, String location, String uri) {
        HtmlForm form(String action) {
            return HtmlForm.find(body, action);
        }

        /** The page's title, for failure messages. */
        String title() {
            var m = java.util.regex.Pattern.compile("(?s)<title>(.*?)</title>").matcher(body);
            return m.find() ? m.group(1).strip() : body.substring(0, Math.min(200, body.length()));
        }

        /** The text of {@code <main>} with the tags removed, for failure messages. */
        String main() {
            var m = java.util.regex.Pattern.compile("(?s)<main[^>]*>(.*?)</main>").matcher(body);
            String inner = m.find() ? m.group(1) : body;
            return inner.replaceAll("(?s)<[^>]+>", " ").replaceAll("\\s+", " ").strip();
        }

        @Override
        public String toString() {
            return status + " " + uri + " (" + title() + "): " + main();
        }
    }

    private final String base;
    private final HttpClient http;

    ConsoleBrowser(String base) {
        this.base = base;
        this.http = HttpClient.newBuilder().cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
    }

    Page get(String pathOrUrl) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).GET());
    }

    /** Submits {@code form} as a browser would (urlencoded, with the deployment's Origin). */
    Page submit(HtmlForm form) {
        return post(form.action, form.fields);
    }

    Page post(String path, Map<String, String> fields) {
        String body = fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(uri(path)).header("Origin", base)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private URI uri(String pathOrUrl) {
        return URI.create(pathOrUrl.startsWith("http") ? pathOrUrl : base + pathOrUrl);
    }

    private Page send(HttpRequest.Builder request) {
        try {
            HttpRequest built = request.timeout(Duration.ofSeconds(30)).build();
            HttpResponse<String> response = http.send(built, HttpResponse.BodyHandlers.ofString());
            return new Page(response.statusCode(), response.body(),
                    response.headers().firstValue("Location").orElse(null), built.uri().toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
