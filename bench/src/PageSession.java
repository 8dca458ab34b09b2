import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A signed-in member for the page scenarios: follows a one-time sign-in link the way a browser does (the link's
 * page, then its button) and keeps the session cookie the platform sets, so wrk can send it with every request.
 */
final class PageSession {

    private static final Pattern HIDDEN = Pattern.compile("name=\"(csrf|token)\" value=\"([^\"]*)\"");

    private PageSession() {
    }

    /** The value of the session cookie after using {@code link} against {@code base}. */
    static String signIn(String base, String link) throws Exception {
        CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
        HttpClient http = HttpClient.newBuilder().cookieHandler(cookies).connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER).build();
        // The link names the public URL; the harness's server listens on its own port.
        URI linkUri = URI.create(link);
        URI local = URI.create(base + linkUri.getRawPath() + "?" + linkUri.getRawQuery());
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(local).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (page.statusCode() != 200) {
            throw new IllegalStateException("the sign-in link answered " + page.statusCode());
        }
        String csrf = null;
        String token = null;
        Matcher m = HIDDEN.matcher(page.body());
        while (m.find()) {
            if (m.group(1).equals("csrf")) {
                csrf = m.group(2);
            } else {
                token = m.group(2);
            }
        }
        if (csrf == null || token == null) {
            throw new IllegalStateException("no sign-in form on the link's page");
        }
        String form = "csrf=" + enc(csrf) + "&token=" + enc(token);
        HttpResponse<String> signedIn = http.send(HttpRequest.newBuilder(URI.create(base + "/console/sign-in/link"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                // The form's origin is the platform's public URL, the one its links name.
                .header("Origin", linkUri.getScheme() + "://" + linkUri.getRawAuthority())
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        if (signedIn.statusCode() != 303) {
            throw new IllegalStateException("signing in answered " + signedIn.statusCode());
        }
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("lnp_console"))
                .map(HttpCookie::getValue).findFirst()
                .orElseThrow(() -> new IllegalStateException("no session cookie after signing in"));
    }

    private static String enc(String value) {
        return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
