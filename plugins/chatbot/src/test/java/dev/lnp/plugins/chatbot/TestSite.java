package dev.lnp.plugins.chatbot;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small web site on the loopback address, on a free port, for the knowledge's imports: each path answers with the
 * status, content type and body set for it (a {@code Location} for redirects); every request is counted.
 */
final class TestSite implements AutoCloseable {

    record Answer(int status, String contentType, byte[] body, String location) {
    }

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    final AtomicInteger requests = new AtomicInteger();

    TestSite() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            Answer a = answers.get(exchange.getRequestURI().getPath());
            if (a == null) {
                a = new Answer(404, "text/html", "<h1>Not found</h1>".getBytes(StandardCharsets.UTF_8), null);
            }
            if (a.contentType() != null) {
                exchange.getResponseHeaders().set("Content-Type", a.contentType());
            }
            if (a.location() != null) {
                exchange.getResponseHeaders().set("Location", a.location());
            }
            exchange.sendResponseHeaders(a.status(), a.body().length == 0 ? -1 : a.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(a.body());
            }
        });
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    TestSite page(String path, String contentType, String body) {
        answers.put(path, new Answer(200, contentType, body.getBytes(StandardCharsets.UTF_8), null));
        return this;
    }

    TestSite html(String path, String body) {
        return page(path, "text/html; charset=utf-8", body);
    }

    TestSite bytes(String path, String contentType, byte[] body) {
        answers.put(path, new Answer(200, contentType, body, null));
        return this;
    }

    TestSite redirect(String path, String location) {
        answers.put(path, new Answer(302, null, new byte[0], location));
        return this;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
