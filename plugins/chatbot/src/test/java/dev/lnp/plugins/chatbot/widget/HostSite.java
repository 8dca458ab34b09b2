package dev.lnp.plugins.chatbot.widget;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.concurrent.Executors;

/**
 * A customer's web site on its own origin (another loopback port) that embeds the widget the way docs/chatbot.md
 * tells site owners to: the script tag with data-key and an SRI integrity hash, under a strict Content Security
 * Policy (no inline script or style; script-src and connect-src name the platform), with hostile CSS of its own
 * that must not reach the widget.
 */
final class HostSite implements AutoCloseable {

    /** CSS a careless or hostile site could have: it must not hide or restyle the widget. */
    static final String HOSTILE_CSS = """
            * { all: unset; }
            head { display: none; }
            html, body, main, h1, p { display: block; }
            html { font: 18px Georgia, serif; background: #fdf6e3; color: #222; }
            body { margin: 32px; }
            h1 { font-size: 32px; font-weight: bold; margin-bottom: 16px; }
            p { margin-bottom: 12px; max-width: 60ch; }
            button { display: none !important; }
            div, span, p, textarea { color: red !important; font-size: 40px !important; background: lime !important; }
            [role=dialog], [role=log] { display: none !important; }
            body > *:not(main) { display: none !important; visibility: hidden !important; }
            """;

    private final HttpServer server;
    private volatile String page = "<!doctype html><title>Not yet</title>";

    /** A site on a new loopback port; {@link #embed} puts the widget on its page. */
    HostSite(String platformBase) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        String csp = "default-src 'none'; style-src 'self'; img-src 'self'; script-src " + platformBase
                + "; connect-src " + platformBase + "; base-uri 'none'; form-action 'none'";
        server.createContext("/", ex -> {
            try (ex) {
                boolean css = ex.getRequestURI().getPath().equals("/host.css");
                byte[] body = (css ? HOSTILE_CSS : page).getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", css ? "text/css" : "text/html; charset=utf-8");
                ex.getResponseHeaders().set("Content-Security-Policy", csp);
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
            }
        });
        server.start();
    }

    /** The page embeds the widget of {@code key}, with the SRI hash {@code integrity}. */
    HostSite embed(String platformBase, String key, String integrity) {
        page = """
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Acme Shop</title>
                <link rel="stylesheet" href="/host.css">
                </head>
                <body>
                <main>
                <h1>Acme Shop</h1>
                <p>Shoes, boots and sandals, delivered in two days. Free returns within 30 days.</p>
                <p>Questions? Use the chat in the corner.</p>
                <p><button type="button">A host button the host's own CSS hides</button></p>
                </main>
                <script src="%s/api/cxo/widget.js" data-key="%s" integrity="%s" crossorigin="anonymous" async></script>
                </body>
                </html>
                """.formatted(platformBase, key, integrity);
        return this;
    }

    /** The page's origin, {@code http://127.0.0.1:<port>}. */
    String origin() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The SRI value ({@code sha384-…}) of the widget script as the plugin ships it. */
    static String integrity() throws IOException {
        try (var in = HostSite.class.getResourceAsStream("/widget/widget.js")) {
            byte[] digest = MessageDigest.getInstance("SHA-384").digest(in.readAllBytes());
            return "sha384-" + Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
