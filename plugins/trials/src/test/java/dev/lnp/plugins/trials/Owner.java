package dev.lnp.plugins.trials;

import java.net.CookieManager;
import java.net.CookiePolicy;
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

/** The owner's browser over plain HTTP: keeps cookies, sends the deployment's Origin, signs in by mailed link. */
final class Owner {

    record Page(int status, String body, HttpResponse<String> response) {
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

        boolean hasButton(String decision) {
            return body.contains("name=\"decision\" value=\"" + decision + "\"");
        }
    }

    private final String base;
    private final Mailbox mail;
    private final String email;
    private final HttpClient http;

    Owner(int port, Mailbox mail, String email) {
        this.base = "http://localhost:" + port;
        this.mail = mail;
        this.email = email;
        this.http = HttpClient.newBuilder().cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build();
    }

    Page get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url.startsWith("http") ? url : base + url)).GET());
    }

    Page post(String path, Map<String, String> form) {
        String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Origin", base)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    static Map<String, String> form(String... pairs) {
        Map<String, String> form = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            form.put(pairs[i], pairs[i + 1]);
        }
        return form;
    }

    /** Presses the decision button on the page the link shows, signing in first when the page asks for it. */
    Page decide(String link, String decision) {
        Page page = get(link);
        if (page.status() != 200) {
            throw new AssertionError(page.status() + " " + page.body());
        }
        if (page.hasButton("sign-in")) {
            signIn(page);
            page = get(link);
        }
        if (!page.hasButton(decision)) {
            // No such button on the page (a decided request): post the decision by hand, as a stale tab would.
            Matcher m = Pattern.compile("request=([^&]+)&key=([^&]+)").matcher(link);
            m.find();
            return post(TrialRoutes.APPROVE, form("request", m.group(1), "key", m.group(2), "csrf",
                    page.hidden("csrf"), "decision", decision));
        }
        return post(TrialRoutes.APPROVE, form("request", page.hidden("request"), "key", page.hidden("key"),
                "csrf", page.hidden("csrf"), "decision", decision));
    }

    /** From a page that offers it: ask for the sign-in link, open it from the mail, press its button. */
    Page signIn(Page page) {
        int before = mail.matching(email, Mailbox.SIGN_IN_LINK).size();
        Page sent = post(TrialRoutes.APPROVE, form("request", page.hidden("request"), "key", page.hidden("key"),
                "csrf", page.hidden("csrf"), "decision", "sign-in"));
        if (sent.status() != 200) {
            throw new AssertionError(sent.status() + " " + sent.body());
        }
        Page confirm = get(mail.awaitLink(email, Mailbox.SIGN_IN_LINK, before + 1));
        Page done = post("/console/sign-in/link", form("csrf", confirm.hidden("csrf"), "token",
                confirm.hidden("token")));
        if (done.status() != 303) {
            throw new AssertionError(done.status() + " " + done.body());
        }
        return done;
    }

    private Page send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Page(r.statusCode(), r.body(), r);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
